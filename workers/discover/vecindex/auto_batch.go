package vecindex

import "fmt"

// PutBatch stores many vectors as Put would one by one, later ones
// replacing earlier ones with the same id. A batch that takes an exact
// index to the threshold builds the graph at once, in the caller's
// goroutine, from the stored vectors and the batch together: loading a
// large registry then costs one parallel graph build, instead of a scan
// index of every vector, a background build racing it, and a log of
// copies of the vectors that arrived meanwhile. Nothing is stored if any
// vector is invalid.
func (a *Auto) PutBatch(ids []string, vecs [][]float32) error {
	if len(ids) != len(vecs) {
		return fmt.Errorf("put batch: %d ids but %d vectors: %w", len(ids), len(vecs), ErrInvalidOption)
	}
	a.wmu.Lock()
	defer a.wmu.Unlock()
	ex, exact := a.active.(*Exact)
	if a.building || !exact || ex.Len()+len(ids) < a.threshold {
		return a.putEach(ids, vecs)
	}
	old, flat := ex.snapshot()
	n := len(old)
	flat = append(flat, make([]float32, len(ids)*a.dim)...)
	for i, v := range vecs {
		if ids[i] == "" {
			return fmt.Errorf("put batch: item %d: %w", i, ErrEmptyID)
		}
		if err := normalizeInto(flat[(n+i)*a.dim:(n+i+1)*a.dim], v, a.dim); err != nil {
			return fmt.Errorf("put batch: item %d (%q): %w", i, ids[i], err)
		}
	}
	// opts were validated by NewAuto, so this cannot fail.
	h, _ := NewHNSW(a.dim, a.opts...)
	h.mu.Lock()
	h.putBatch(append(old, ids...), flat)
	h.mu.Unlock()
	a.setActive(h)
	a.adapt()
	return nil
}

// putEach is PutBatch one vector at a time, validating them all first so
// that an invalid one stores nothing; the caller holds wmu.
func (a *Auto) putEach(ids []string, vecs [][]float32) error {
	for i, v := range vecs {
		if ids[i] == "" {
			return fmt.Errorf("put batch: item %d: %w", i, ErrEmptyID)
		}
		if _, err := normalized(v, a.dim); err != nil {
			return fmt.Errorf("put batch: item %d (%q): %w", i, ids[i], err)
		}
	}
	for i, v := range vecs {
		if err := a.active.Put(ids[i], v); err != nil {
			return fmt.Errorf("put batch: item %d (%q): %w", i, ids[i], err)
		}
		if a.building {
			a.pending = append(a.pending, pendingOp{id: ids[i], vec: append([]float32(nil), v...)})
		}
		a.adapt()
	}
	return nil
}
