package embed

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
)

// VectorBucket is the JetStream KV bucket of tool vectors shared by every
// discover worker, keyed by Key.String().
const VectorBucket = "vectors"

// KVCache is a Cache in a NATS KV bucket with an in-memory copy in front: a
// worker loads every vector of its embedder once at start (one watch, not a
// request per tool) and writes new ones through for the others.
type KVCache struct {
	kv  jetstream.KeyValue
	mem *MemoryCache
}

// OpenKVCache opens (creating if needed) the vectors bucket.
func OpenKVCache(ctx context.Context, js jetstream.JetStream) (*KVCache, error) {
	kv, err := pipeline.KeyValue(ctx, js, jetstream.KeyValueConfig{
		Bucket: VectorBucket, Description: "Toolyard tool vectors by (embedder, manifest content hash)",
		History: 1, Storage: jetstream.FileStorage,
	})
	if err != nil {
		return nil, err
	}
	return &KVCache{kv: kv, mem: NewMemoryCache()}, nil
}

// Preload copies every stored vector of the embedder into memory and
// returns how many there were.
func (c *KVCache) Preload(ctx context.Context, embedderID string) (int, error) {
	prefix := Key{Embedder: embedderID}.String() // "<embedder>."
	w, err := c.kv.Watch(ctx, prefix+"*", jetstream.IgnoreDeletes())
	if err != nil {
		return 0, fmt.Errorf("load vectors of %s: %w", embedderID, err)
	}
	defer w.Stop()
	n := 0
	for e := range w.Updates() {
		if e == nil {
			break
		}
		vec, err := decodeVector(e.Value())
		if err != nil {
			continue // a damaged entry is a miss: it will be embedded again
		}
		c.mem.Put(ctx, Key{Embedder: embedderID, Content: strings.TrimPrefix(e.Key(), prefix)}, vec)
		n++
	}
	return n, nil
}

// Get looks in memory, then in the bucket.
func (c *KVCache) Get(ctx context.Context, key Key) ([]float32, bool, error) {
	if v, ok, _ := c.mem.Get(ctx, key); ok {
		return v, true, nil
	}
	e, err := c.kv.Get(ctx, key.String())
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("vector cache get %s: %w", key, err)
	}
	vec, err := decodeVector(e.Value())
	if err != nil {
		return nil, false, nil
	}
	c.mem.Put(ctx, key, vec)
	return vec, true, nil
}

// Put stores the vector in memory and in the bucket.
func (c *KVCache) Put(ctx context.Context, key Key, vec []float32) error {
	c.mem.Put(ctx, key, vec)
	if _, err := c.kv.Put(ctx, key.String(), encodeVector(vec)); err != nil {
		return fmt.Errorf("vector cache put %s: %w", key, err)
	}
	return nil
}

func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decodeVector(b []byte) ([]float32, error) {
	if len(b) == 0 || len(b)%4 != 0 {
		return nil, fmt.Errorf("vector of %d bytes", len(b))
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}
