package embed

import (
	"context"
	"crypto/sha256"
	"slices"

	lru "github.com/hashicorp/golang-lru/v2"
)

// QueryCacheSize is how many request vectors CachedQueries keeps: about
// 2 MB of the sentence encoder's 512 dimensions.
const QueryCacheSize = 1024

// CachedQueries wraps a slow embedder (a remote one, the sentence encoder)
// so that a request embedded before is not embedded again: agents repeat
// their requests, and each costs the remote embedder 100–300 ms or the
// encoder 10–20 ms, against well under a millisecond for the rest of a
// search. The most recent size distinct requests are kept, keyed by the
// SHA-256 of their text (the text itself is not kept: a request may hold a
// secret). Documents are embedded as before. The vectors are the
// embedder's own, so the ID is too.
func CachedQueries(e Embedder, size int) Embedder {
	if size <= 0 {
		return e
	}
	c, err := lru.New[[sha256.Size]byte, []float32](size)
	if err != nil {
		return e // unreachable: size is positive
	}
	return &cachedQueries{Embedder: e, lru: c}
}

type cachedQueries struct {
	Embedder
	lru *lru.Cache[[sha256.Size]byte, []float32]
}

// EmbedQuery returns the cached vector of text, or the embedder's, kept.
// Callers get a copy of their own.
func (c *cachedQueries) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	key := sha256.Sum256([]byte(text))
	if v, ok := c.lru.Get(key); ok {
		return slices.Clone(v), nil
	}
	v, err := c.Embedder.EmbedQuery(ctx, text)
	if err != nil {
		return nil, err
	}
	c.lru.Add(key, slices.Clone(v))
	return v, nil
}
