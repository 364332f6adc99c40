package discover

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/discover/vecindex"
)

// vectorIndex is what the engine needs of a vector index; vecindex.Auto is
// the one it uses.
type vectorIndex interface {
	Put(id string, vec []float32) error
	PutBatch(ids []string, vecs [][]float32) error
	Remove(id string) bool
	Search(query []float32, k int, f vecindex.Filter) ([]vecindex.Hit, error)
}

// hnswThreshold is the registry size at which the vector side stops
// scanning and builds a graph: a scan of 100k 100-d vectors costs about
// 4 ms, the budget of a whole search.
const hnswThreshold = 100_000

// vectors is the vector side: the embedder, its cache and the index of tool
// vectors. Its index is updated under the engine's write lock.
type vectors struct {
	emb embed.Embedder
	// requests embeds requests: emb, or for a slow embedder emb with
	// the latest requests' vectors kept (embed.CachedQueries).
	requests embed.Embedder
	cache    embed.Cache
	idx      vectorIndex
	log      *slog.Logger
	warn     limiter
}

// newVectorSide is a vector side of emb without tools: requests go through
// a cache of the latest ones unless emb is the local word vectors, which
// take microseconds.
func newVectorSide(emb embed.Embedder, cfg config) *vectors {
	v := &vectors{emb: emb, requests: emb, log: cfg.log}
	if _, local := emb.(*embed.Local); !local {
		v.requests = embed.CachedQueries(emb, cfg.requestCache)
	}
	return v
}

// newVectors embeds the tools and indexes their vectors. It fails when the
// embedder does; the caller then goes on keyword-only.
func newVectors(ctx context.Context, cfg config, tools []schemas.Manifest) (*vectors, error) {
	v := newVectorSide(cfg.embedder, cfg)
	v.cache = cfg.cache
	if _, local := v.emb.(*embed.Local); v.cache == nil && !local {
		// The local embedder averages word vectors in microseconds: a
		// cache of its output would only hold a second copy of every
		// tool's vector (400 MB at a million tools).
		v.cache = embed.NewMemoryCache()
	}
	// The dimension is learned from the embedder itself, so an empty
	// registry works too, and a broken embedder fails here, at start.
	probe, err := v.emb.EmbedQuery(ctx, "tool")
	if err != nil {
		return nil, fmt.Errorf("probe embedder %s: %w", v.emb.ID(), err)
	}
	idx, err := vecindex.NewAuto(len(probe), hnswThreshold)
	if err != nil {
		return nil, fmt.Errorf("vector index of dimension %d: %w", len(probe), err)
	}
	v.idx = idx
	vecs, err := v.embedTools(ctx, tools)
	if err != nil {
		return nil, err
	}
	// One batch: a registry past hnswThreshold gets its graph built here,
	// at once and in parallel, and is searched by it from the start.
	ids := make([]string, 0, len(tools))
	keep := vecs[:0]
	for i, m := range tools {
		// A tool whose text has nothing to embed is left out, since a
		// zero vector is equally close to everything.
		if !isZero(vecs[i]) {
			ids = append(ids, m.ID)
			keep = append(keep, vecs[i])
		}
	}
	if err := v.idx.PutBatch(ids, keep); err != nil {
		return nil, fmt.Errorf("index vectors of %d tools: %w", len(ids), err)
	}
	return v, nil
}

func (v *vectors) embedTools(ctx context.Context, tools []schemas.Manifest) ([][]float32, error) {
	vecs, err := embed.EmbedTools(ctx, v.emb, v.cache, tools, embed.WithLogger(v.log))
	if err != nil {
		return nil, fmt.Errorf("embed %d tools with %s: %w", len(tools), v.emb.ID(), err)
	}
	return vecs, nil
}

// put indexes a tool's vector; nothing on a side the engine does not have
// (nil). A tool whose text has nothing to embed is left out, since a zero
// vector is equally close to everything, and so is one without a vector
// (nil: its embedder failed): an old vector would describe the old
// manifest, so the tool is found by keywords only.
func (v *vectors) put(id string, vec []float32) error {
	if v == nil {
		return nil
	}
	if isZero(vec) {
		v.idx.Remove(id)
		return nil
	}
	if err := v.idx.Put(id, vec); err != nil {
		return fmt.Errorf("index vector of tool %s: %w", id, err)
	}
	return nil
}

// remove drops a tool's vector; nothing on a side the engine does not have.
func (v *vectors) remove(id string) {
	if v != nil {
		v.idx.Remove(id)
	}
}

// query embeds an intent; nil, nil when it has nothing to embed.
func (v *vectors) query(ctx context.Context, text string) ([]float32, error) {
	return embedWith(ctx, v.requests, text)
}

// embedText embeds a text that is not a request (a learned intent) as a
// request is, without the requests' cache.
func (v *vectors) embedText(ctx context.Context, text string) ([]float32, error) {
	return embedWith(ctx, v.emb, text)
}

func embedWith(ctx context.Context, emb embed.Embedder, text string) ([]float32, error) {
	qv, err := emb.EmbedQuery(ctx, text)
	if err != nil {
		return nil, fmt.Errorf("embed query with %s: %w", emb.ID(), err)
	}
	if isZero(qv) {
		return nil, nil
	}
	return qv, nil
}

// queries embeds a request and, when it is in several parts
// (requestParts), each part too: the vectors a tool's best cosine is taken
// over. nil, nil when nothing has anything to embed.
func (v *vectors) queries(ctx context.Context, text string) ([][]float32, error) {
	texts := append([]string{text}, requestParts(text)...)
	vecs := make([][]float32, len(texts))
	g, gctx := errgroup.WithContext(ctx)
	for i, t := range texts {
		g.Go(func() error {
			var err error
			vecs[i], err = v.query(gctx, t)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return slices.DeleteFunc(vecs, func(qv []float32) bool { return qv == nil }), nil
}

// search returns up to n tools by cosine, best first.
func (v *vectors) search(qv []float32, n int, f vecindex.Filter) ([]vecindex.Hit, error) {
	hs, err := v.idx.Search(qv, n, f)
	if err != nil {
		return nil, fmt.Errorf("vector search for %d tools: %w", n, err)
	}
	return hs, nil
}

func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// limiter lets a repeated warning through at most once per interval and
// counts the ones it held back, so a failing embedder neither floods the
// log nor goes unnoticed.
type limiter struct {
	last       atomic.Int64 // unix nanoseconds of the last warning let through
	suppressed atomic.Int64
}

const warnInterval = 10 * time.Second

// allow reports whether to log now, and how many were suppressed since.
func (l *limiter) allow(now time.Time) (bool, int64) {
	last := l.last.Load()
	if now.UnixNano()-last < int64(warnInterval) || !l.last.CompareAndSwap(last, now.UnixNano()) {
		l.suppressed.Add(1)
		return false, 0
	}
	return true, l.suppressed.Swap(0)
}
