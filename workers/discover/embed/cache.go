package embed

import (
	"context"
	"strings"
	"sync"
)

// Key names a tool vector: which embedder made it from which manifest
// content. Tools whose content hashes alike share a vector.
type Key struct {
	Embedder string // Embedder.ID()
	Content  string // ContentHash of the manifest
}

// String is the key as one token-safe string, usable as a NATS KV key: the
// embedder id with every character outside [A-Za-z0-9_=-] replaced by '_',
// a dot, then the content hash.
func (k Key) String() string {
	var b strings.Builder
	b.Grow(len(k.Embedder) + 1 + len(k.Content))
	for _, r := range k.Embedder {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '_', r == '=', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	b.WriteByte('.')
	b.WriteString(k.Content)
	return b.String()
}

// Cache stores tool vectors shared by every worker, so an unchanged tool is
// embedded once. Implementations must be safe for concurrent use; Get
// reports a miss as (nil, false, nil), and an error only when the store
// itself failed.
type Cache interface {
	Get(ctx context.Context, key Key) ([]float32, bool, error)
	Put(ctx context.Context, key Key, vec []float32) error
}

// MemoryCache is a Cache in process memory, unbounded: one entry per tool
// version and embedder, about 0.5 KB for the local embedder's vectors.
type MemoryCache struct {
	mu sync.RWMutex
	m  map[Key][]float32
}

// NewMemoryCache returns an empty in-memory cache.
func NewMemoryCache() *MemoryCache { return &MemoryCache{m: map[Key][]float32{}} }

// Get returns the vector stored under key. The caller must not modify it.
func (c *MemoryCache) Get(_ context.Context, key Key) ([]float32, bool, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[key]
	return v, ok, nil
}

// Put stores a copy of vec under key.
func (c *MemoryCache) Put(_ context.Context, key Key, vec []float32) error {
	v := append([]float32(nil), vec...)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key] = v
	return nil
}

// Len is the number of stored vectors.
func (c *MemoryCache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}
