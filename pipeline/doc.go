// Package pipeline is Toolyard's runtime: the embedded NATS server, the
// JetStream topology, and the generic stage runner that consumes a stage's
// work, calls its handler, publishes what the handler returns and acks — with
// retries, dead-lettering, metrics and graceful drain. It knows nothing about
// tools: stages are handlers over bytes. A stage says which values of an
// input are secret (Stage.Secrets), and the runner keeps them out of all it
// writes about the input — outputs, rejections, dead letters, logs — but the
// work it hands on (scrub.go).
package pipeline
