package vecindex

import (
	"fmt"
	"sync"
)

// Search returns the k stored vectors most similar to query, best first.
func (e *Exact) Search(query []float32, k int, f Filter) ([]Hit, error) {
	q, err := normalized(query, e.dim)
	if err != nil {
		return nil, fmt.Errorf("exact search: %w", err)
	}
	if k <= 0 {
		return nil, nil
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	n := len(e.ids)
	if set, ok := f.(IDSet); ok && len(set) < n/4 {
		// Looking each id up costs about one more dot product than
		// scanning its row, so a set smaller than a quarter of the index
		// is cheaper to walk than the index is to scan.
		return e.scoreSet(q, k, set), nil
	}
	allow := allowFunc(f)
	w := e.cfg.workers
	if n < e.cfg.parallelScanMin || w < 2 {
		t := newTopK(k, e.ids)
		e.scan(&t, q, 0, n, allow)
		return t.hits(), nil
	}
	return e.parallelScan(q, k, allow, min(w, n)), nil
}

// scan offers rows [lo, hi) to t, checking the filter only for rows good
// enough to enter it.
func (e *Exact) scan(t *topK, q []float32, lo, hi int, allow func(string) bool) {
	d := e.dim
	vecs := e.vecs[lo*d : hi*d]
	for i := lo; i < hi; i++ {
		s := dot(q, vecs[:d:d])
		vecs = vecs[d:]
		slot := uint32(i)
		if !t.wants(slot, s) {
			continue
		}
		if allow != nil && !allow(e.ids[i]) {
			continue
		}
		t.push(slot, s)
	}
}

func (e *Exact) parallelScan(q []float32, k int, allow func(string) bool, w int) []Hit {
	n := len(e.ids)
	parts := make([]topK, w)
	var wg sync.WaitGroup
	for p := range parts {
		parts[p] = newTopK(k, e.ids)
		lo, hi := p*n/w, (p+1)*n/w
		wg.Go(func() { e.scan(&parts[p], q, lo, hi, allow) })
	}
	wg.Wait()
	t := newTopK(k, e.ids)
	for _, part := range parts {
		for _, c := range part.h {
			t.offer(c.slot, c.score)
		}
	}
	return t.hits()
}

func (e *Exact) scoreSet(q []float32, k int, set IDSet) []Hit {
	t := newTopK(k, e.ids)
	for id := range set {
		if slot, ok := e.slotOf[id]; ok {
			t.offer(slot, dot(q, e.row(slot)))
		}
	}
	return t.hits()
}
