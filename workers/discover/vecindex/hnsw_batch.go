package vecindex

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// PutBatch stores many vectors, as Put would one by one, but links the new
// ids from up to WithWorkers goroutines (hnswlib's scheme: a lock per node
// list, the entry point under its own lock). It holds the write lock
// throughout, so searches wait: it is meant for loading a registry and for
// Auto's background build of a graph nobody searches yet. New ids take new
// slots rather than those of removed ids. Nothing is stored if any vector
// is invalid.
func (h *HNSW) PutBatch(ids []string, vecs [][]float32) error {
	if len(ids) != len(vecs) {
		return fmt.Errorf("put batch: %d ids but %d vectors: %w", len(ids), len(vecs), ErrInvalidOption)
	}
	flat := make([]float32, len(vecs)*h.dim)
	for i, v := range vecs {
		if ids[i] == "" {
			return fmt.Errorf("put batch: item %d: %w", i, ErrEmptyID)
		}
		if err := normalizeInto(flat[i*h.dim:(i+1)*h.dim], v, h.dim); err != nil {
			return fmt.Errorf("put batch: item %d (%q): %w", i, ids[i], err)
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.putBatch(ids, flat)
	return nil
}

// putBatch is PutBatch for vectors already unit length, flat; the caller
// holds mu.
func (h *HNSW) putBatch(ids []string, flat []float32) {
	g := &h.g
	d := h.dim
	// Only ids new to the index and to the batch go to the parallel part;
	// replacements, and repeats within the batch (last one wins), follow
	// one by one in batch order.
	var fresh, later []int
	seen := make(map[string]struct{}, len(ids))
	for i, id := range ids {
		_, stored := h.slotOf[id]
		_, repeat := seen[id]
		if stored || repeat {
			later = append(later, i)
			continue
		}
		seen[id] = struct{}{}
		fresh = append(fresh, i)
	}

	g.grow(len(fresh))
	first := uint32(g.slots())
	for _, i := range fresh {
		slot := g.addSlot(ids[i], h.randomLevel())
		copy(g.vec(slot), flat[i*d:(i+1)*d])
		h.slotOf[ids[i]] = slot
	}
	h.linkRange(first, uint32(g.slots()))

	for _, i := range later {
		h.put(ids[i], flat[i*d:(i+1)*d])
	}
}

// linkRange inserts the stored but unlinked slots [lo, hi).
func (h *HNSW) linkRange(lo, hi uint32) {
	g := &h.g
	workers := min(h.cfg.workers, int(hi-lo)/64)
	if workers < 2 {
		st := h.state()
		for s := lo; s < hi; s++ {
			h.insert(st, s)
		}
		h.states.Put(st)
		return
	}
	if g.maxLevel < 0 {
		// The first node has nobody to link to; it becomes the entry
		// point the workers start from.
		st := h.state()
		h.insert(st, lo)
		h.states.Put(st)
		lo++
	}
	g.locks = make([]sync.Mutex, g.slots())
	defer func() { g.locks = nil }()
	var next atomic.Uint32
	next.Store(lo)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			st := &searchState{}
			for {
				s := next.Add(1) - 1
				if s >= hi {
					return
				}
				h.insert(st, s)
			}
		})
	}
	wg.Wait()
}
