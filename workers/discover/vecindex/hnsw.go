package vecindex

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// HNSW is an approximate index: a hierarchical navigable small-world graph
// (Malkov & Yashunin 2016, with hnswlib's neighbour heuristic and
// tombstone deletion).
//
// It is written here rather than taken from github.com/coder/hnsw (v0.6.1,
// the only version the module proxy serves), measured on the same kind of
// clustered dimension-100 vectors: its search stops at the first expansion
// that does not improve its best hit and keeps only k results, so
// recall@10 was 0.075 at M=16, efSearch=100 and 0.11 at M=32, efSearch=400
// (0.01 on near-uniform vectors); Add of an existing key panicked ("node
// not added"); each node keeps its links in a Go map, about 1 KB of heap a
// vector at M=16 against 600 B here; and it is not safe for concurrent use.
//
// Removal leaves a tombstone: the node still routes searches, so deleting
// never cuts the graph, but is never returned, and the next Put of a new id
// reuses its slot. Put of an existing id re-links that node in place. A
// graph where removals far outnumber additions slows down and should be
// rebuilt; Auto does that by itself.
//
// Searches share a read lock. Put takes the write lock for the one
// insertion it makes (0.1–0.3 ms at dimension 100, so a registry watch
// stalls searches only that long), Remove for a moment, and PutBatch while
// it links a whole batch from several goroutines.
type HNSW struct {
	cfg      config
	dim      int
	ml       float64
	efSearch atomic.Int64

	mu     sync.RWMutex
	g      graph
	slotOf map[string]uint32
	free   []uint32 // tombstoned slots, reused by the next new ids
	rng    *rand.Rand
	// entryMu guards the entry point while a batch inserts in parallel.
	entryMu sync.Mutex
	states  sync.Pool
}

// NewHNSW returns an empty graph index for vectors of length dim.
func NewHNSW(dim int, opts ...Option) (*HNSW, error) {
	cfg, err := newConfig(dim, opts)
	if err != nil {
		return nil, fmt.Errorf("new graph index: %w", err)
	}
	h := &HNSW{
		cfg:    cfg,
		dim:    dim,
		ml:     1 / math.Log(float64(cfg.m)),
		g:      newGraph(dim, cfg.m),
		slotOf: make(map[string]uint32),
		rng:    rand.New(rand.NewPCG(cfg.seed, 0x9e3779b97f4a7c15)),
	}
	h.efSearch.Store(int64(cfg.efSearch))
	return h, nil
}

// Dim is the vector dimension.
func (h *HNSW) Dim() int { return h.dim }

// Len is the number of stored (not removed) vectors.
func (h *HNSW) Len() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.slotOf)
}

// Tombstones is the number of removed nodes whose slots are not yet reused.
func (h *HNSW) Tombstones() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.free)
}

// SetEfSearch changes the candidates a search keeps (see WithEfSearch);
// values below 1 are ignored.
func (h *HNSW) SetEfSearch(ef int) {
	if ef >= 1 {
		h.efSearch.Store(int64(ef))
	}
}

// Put stores a unit-length copy of vec under id, replacing any previous one.
func (h *HNSW) Put(id string, vec []float32) error {
	if id == "" {
		return fmt.Errorf("put: %w", ErrEmptyID)
	}
	v, err := normalized(vec, h.dim)
	if err != nil {
		return fmt.Errorf("put %q: %w", id, err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.put(id, v)
	return nil
}

// put stores v (already unit length) under id; the caller holds mu.
func (h *HNSW) put(id string, v []float32) {
	g := &h.g
	slot, ok := h.slotOf[id]
	switch {
	case ok:
	case len(h.free) > 0:
		slot = h.free[len(h.free)-1]
		h.free = h.free[:len(h.free)-1]
		g.ids[slot], g.dead[slot] = id, false
		h.slotOf[id] = slot
	default:
		slot = g.addSlot(id, h.randomLevel())
		h.slotOf[id] = slot
		copy(g.vec(slot), v)
		st := h.state()
		h.insert(st, slot)
		h.states.Put(st)
		return
	}
	h.relink(slot, v)
}

// relink gives an existing slot a new vector and new links. Links from other
// nodes to it stay: they still lead to a valid node, only a less apt one,
// and later insertions prune them as lists fill. It keeps the slot's level,
// which was drawn from the same distribution a new one would be.
func (h *HNSW) relink(slot uint32, v []float32) {
	g := &h.g
	copy(g.vec(slot), v)
	g.clearLinks(slot)
	if g.entry == slot {
		// Searching from a node with no links would find nothing: enter
		// through another node, and let insert restore this one as the
		// entry if it is still the highest.
		other := g.highestOther(slot)
		if other == noSlot {
			return
		}
		g.entry, g.maxLevel = other, int(g.levels[other])
	}
	st := h.state()
	h.insert(st, slot)
	h.states.Put(st)
}

// Remove deletes id, reporting whether it was stored. Its node stays as a
// tombstone until a new id reuses the slot.
func (h *HNSW) Remove(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	slot, ok := h.slotOf[id]
	if !ok {
		return false
	}
	delete(h.slotOf, id)
	h.g.ids[slot], h.g.dead[slot] = "", true
	h.free = append(h.free, slot)
	return true
}

// randomLevel draws a level with P(level ≥ l) = M^-l, so each layer holds
// about 1/M of the one below.
func (h *HNSW) randomLevel() int {
	u := 1 - h.rng.Float64() // (0, 1]: log(0) would be -Inf
	return min(int(-math.Log(u)*h.ml), maxLevel)
}

// state returns pooled search scratch.
func (h *HNSW) state() *searchState {
	if st, ok := h.states.Get().(*searchState); ok {
		return st
	}
	return &searchState{}
}

// forEachLive calls fn with every stored id and its unit vector; the
// caller holds mu.
func (h *HNSW) forEachLive(fn func(id string, vec []float32)) {
	for s, dead := range h.g.dead {
		if !dead {
			fn(h.g.ids[s], h.g.vec(uint32(s)))
		}
	}
}
