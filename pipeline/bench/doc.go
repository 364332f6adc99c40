// Package bench measures the pipeline end to end on a real NATS server: how
// many intents per second it turns into executed results, and the latency of
// each agent output from publish to its last result; and, for comparison,
// plain JetStream publish + consume + ack through one stream on the same
// server.
//
// It only publishes and measures: whoever calls it runs the stages (in
// process, as 'toolyard bench pipeline' does, or as an operator's workers).
package bench
