// Package roles says what each kind of Toolyard client may do on NATS, as
// subject permissions carried in its credential:
//
//   - admin: everything (registry changes, stream management, models, DLQ);
//   - worker: the consumers of its own stages, the stage outputs, and the
//     buckets the stages use; never the registry or the models, never a
//     stream delete, purge or update;
//   - agent: only its own sessions: publish its output and token stream,
//     read its results, call the service endpoints for those sessions.
//
// The tables here are the one place these sets are written down; the
// credential minting in pipeline/auth knows nothing of them.
package roles
