// Package session keeps each agent session's active tool set — the tools
// the agent is shown beside the meta-tools — in the JetStream KV bucket
// "sessions". A set is seeded from the session's first agent output (the
// best K tools above a confidence floor), grows with find_tools and
// activate, and is cleared when the session ends (agent.end.<session>,
// `toolyard session end`) or when it has been idle for the bucket's TTL.
//
// Writes use the key's revision (optimistic concurrency), so workers adding
// to the same set at once never lose each other's tools. Seeding fails safe:
// when discovery or the embedder fails, the set is left empty (meta-tools
// only) with the reason, never filled with the whole registry.
package session
