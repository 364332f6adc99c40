// Package effects makes tool calls take effect once although JetStream
// delivers their messages at least once, and keeps large outputs aside.
//
// # Execution records
//
// Every call has a record in the KV bucket "executions", keyed by session
// and intent id. A worker that receives the call claims the record with a
// create-only write (kv.Create): one claimant wins, the others see the
// record. The claim is a lease: the owner's token and an expiry, which a
// heartbeat moves forward while the tool runs (every fifth of the lease).
// When the tool is done the owner replaces the claim, at the revision it
// last wrote, with the messages it is about to publish (the result and the
// audit record). Records expire with the bucket's TTL (24h by default,
// longer than any message stays in the work queue).
//
// A worker that receives a call whose record is
//
//   - done republishes the stored messages instead of running the tool
//     (their Nats-Msg-Ids make them duplicates the streams drop, if the
//     first publication got through);
//   - claimed under a live lease waits for it to finish or lapse, watching
//     the key, and after a bounded wait gives the message back to be
//     redelivered later: the tool never runs twice at once;
//   - claimed under a lapsed lease (its owner died or lost NATS) takes it
//     over with an update at the revision it read, so of several workers
//     only one wins.
//
// Lease expiry compares the writer's wall clock with the reader's: worker
// clocks must agree to well within a lease (NTP does).
//
// # Crash windows
//
// A worker can die at any point; what the next delivery finds:
//
//  1. Before the claim: nothing; the call runs normally.
//  2. After the claim, while the tool runs: the lease lapses and the next
//     delivery takes over and runs the tool again. Subprocess tools die
//     with their worker (the kernel kills them when it goes), so the dead
//     worker's run cannot finish its effect behind the new one's back.
//  3. After the tool's effect, before its record is written: the next
//     delivery cannot know the effect happened and runs the tool again.
//     Only the tool can protect itself here: it receives an idempotency
//     key, the same on every delivery of the call (TOOLYARD_IDEMPOTENCY_KEY,
//     an Idempotency-Key header, MCP _meta), and a tool with effects must
//     dedupe on it.
//  4. After the record, before or during publishing, or before the ack:
//     the next delivery republishes the stored messages.
//  5. A worker cut off from NATS but alive: its heartbeat fails, and the
//     run is cancelled before its lease lapses (or as soon as it finds the
//     claim taken over), so the two runs do not overlap, clock skew aside;
//     what the first did before it stopped is the idempotency key's to
//     cover.
//
// # Large outputs
//
// Outputs over the inline limit go to the object store "outputs" under
// <tool>/<session>/<intent>; the result carries a reference and a preview.
// An index per tool (KV bucket "outputs_index") keeps the names of the last
// N outputs of each tool, and older ones are deleted.
package effects
