// Package status is the operator's page of a running Toolyard: the streams
// and the stages' durable consumers (pipeline.ReadStatus, ephemeral
// consumers folded into a count), the dead letters by stage with the
// oldest one's age, and what the pipeline has been doing: the tier mix,
// the tools called with their errors, and the latest failures, read from
// the tail of the AUDIT stream — the same view whichever process serves
// the page, however many workers the stages run on.
package status
