package vecindex

import (
	"fmt"
	"sync"
)

// Exact answers by scoring every stored vector. Below about 100k vectors of
// dimension 100 that is fast enough (see the package doc) and it is exact,
// updates in O(dim), and costs nothing beyond the vectors themselves.
type Exact struct {
	cfg config
	dim int

	mu sync.RWMutex
	// Rows are contiguous so that a scan streams through memory; a removal
	// moves the last row into the hole so that they stay contiguous.
	vecs   []float32
	ids    []string
	slotOf map[string]uint32
}

// NewExact returns an empty exact index for vectors of length dim.
func NewExact(dim int, opts ...Option) (*Exact, error) {
	cfg, err := newConfig(dim, opts)
	if err != nil {
		return nil, fmt.Errorf("new exact index: %w", err)
	}
	return &Exact{cfg: cfg, dim: dim, slotOf: make(map[string]uint32)}, nil
}

// Dim is the vector dimension.
func (e *Exact) Dim() int { return e.dim }

// Len is the number of stored vectors.
func (e *Exact) Len() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return len(e.ids)
}

// Put stores a unit-length copy of vec under id, replacing any previous one.
func (e *Exact) Put(id string, vec []float32) error {
	if id == "" {
		return fmt.Errorf("put: %w", ErrEmptyID)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if slot, ok := e.slotOf[id]; ok {
		if err := normalizeInto(e.row(slot), vec, e.dim); err != nil {
			return fmt.Errorf("put %q: %w", id, err)
		}
		return nil
	}
	n := len(e.ids)
	e.vecs = append(e.vecs, make([]float32, e.dim)...)
	if err := normalizeInto(e.vecs[n*e.dim:], vec, e.dim); err != nil {
		e.vecs = e.vecs[:n*e.dim]
		return fmt.Errorf("put %q: %w", id, err)
	}
	e.ids = append(e.ids, id)
	e.slotOf[id] = uint32(n)
	return nil
}

// Remove deletes id, reporting whether it was stored.
func (e *Exact) Remove(id string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	slot, ok := e.slotOf[id]
	if !ok {
		return false
	}
	delete(e.slotOf, id)
	last := uint32(len(e.ids) - 1)
	if slot != last {
		copy(e.row(slot), e.row(last))
		e.ids[slot] = e.ids[last]
		e.slotOf[e.ids[slot]] = slot
	}
	e.ids[last] = ""
	e.ids = e.ids[:last]
	e.vecs = e.vecs[:int(last)*e.dim]
	return true
}

func (e *Exact) row(slot uint32) []float32 {
	i := int(slot) * e.dim
	return e.vecs[i : i+e.dim : i+e.dim]
}

// snapshot copies the index's contents, for building another index from
// them without holding the lock while it builds.
func (e *Exact) snapshot() (ids []string, vecs []float32) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return append([]string(nil), e.ids...), append([]float32(nil), e.vecs...)
}
