// Package predict is the pure core of the predict stage ("MCP 2.5"): it
// watches an agent's output as it streams, chunk by chunk, guesses the
// intents the agent is about to express, and says which searches are worth
// running ahead, so their candidates are ready when the closing "]" comes.
//
// Three sources of predictions:
//   - prefix: the open "[TOOL: " marker itself, as its words arrive; a new
//     prediction when the text has grown, at most one per debounce interval
//     and at most K per intent (the searches cost a remote embedder call);
//   - context: words of the output before the marker that, in the trained
//     history (bundle.Templates.Context), preceded intents for a tool;
//   - next: the tools that in the history followed the tool this session
//     has just run (bundle.Templates.Next).
//
// Chunks carry a sequence number per message: the predictor restores their
// order, drops duplicates, and gives up on a gap it cannot fill in bounded
// memory (it stops predicting until the next marker rather than guess from
// text it has not seen). Sessions expire after a TTL and their number is
// bounded, least recently active first out.
//
// The match rule (Match) decides whether a prefetched search may answer a
// real intent: same registry and model version and cosine ≥ 0.8 between
// the real and the predicted intent's texts. Judge says whether an answer
// taken from a prefetched search was a wrong hit: a fresh search would
// have ranked another tool first or put it in another tier.
//
// Nothing here talks to NATS: binding.go does, and the discover stage
// consults the prefetch bucket through Lookup.
package predict
