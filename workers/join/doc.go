// Package join runs nested intents in order. In
//
//	[TOOL: translate [TOOL: fetch the page title of example.com] into French]
//
// the inner intent is independent and is discovered at once; the outer one
// depends on it and must not run until the inner one's result is in. The
// join stage puts that result (its output as compact text) where the inner
// marker stood and only then hands the outer intent to discovery.
//
// # Flow
//
// The parse stage registers every dependent intent in the KV bucket
// "pending" (Store.Register) before it publishes any work: a record keyed by
// the outer intent, and one edge per inner intent naming the outer one;
// parse also sets each inner intent's Outer. Every way an intent can end —
// executed, alternatives offered, not found, an error from any stage, a
// dead letter — is exactly one result on result.<session>, and every stage
// copies Outer into it; bind.Result then also puts it on pipe.join.<session>.
// The join stage is a durable consumer of pipe.join.>, so it reads the
// results of nested intents only, never those of the many intents at the
// top (reading every result cost about a quarter of the pipeline's CPU).
// For each result it follows the edge of
// its intent, records the input in the outer record (compare-and-set on the
// KV revision, so concurrent join workers never lose an input) and, with the
// last input, decides the outcome in the same write:
//
//   - every input executed: the outer intent, its text with each inner text
//     replaced by that intent's output, goes to discovery;
//   - an input did not execute (error, not_found, multiple_matches, …): the
//     outer intent is not run; its result is an error (code input_failed)
//     that names the inner intent and how it ended. An outer intent whose
//     input failed is itself a failed input to its own outer intent, so a
//     failure travels up any depth of nesting.
//
// The outer intent then runs like any other and its result may in turn
// complete a record further out (a → b → c: c runs, then b, then a).
//
// # Crashes and redelivery
//
// A record is waiting, then done (the outcome written in the record), then
// deleted once the outcome is published. A worker that dies between two steps
// leaves a state the next one finishes: an unacked result is redelivered and
// finds its input already recorded, or the record done and republishes its
// outcome; publishes carry Nats-Msg-Ids (<intent>:discover, <intent>:result),
// so a republish is a duplicate the stream drops. Parse creates a record only
// if its key never existed (KV revision 0), so a parse redelivered after the
// outer intent finished cannot bring the record back and run it twice — the
// delete marker stays in the bucket until its max age (a day).
//
// # Timeouts
//
// Every join worker sweeps the bucket: a record still waiting after the
// timeout (WithTimeout, 10 minutes by default) is decided as failed (code
// input_timeout) by compare-and-set, so exactly one worker decides it; a
// record found done but not yet deleted is published again and deleted.
package join
