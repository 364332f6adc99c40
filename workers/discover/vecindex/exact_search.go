package vecindex

import "fmt"

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
	n, w := len(e.ids), 1
	if n >= e.cfg.parallelScanMin {
		w = e.cfg.workers
	}
	if set, ok := f.(IDSet); ok && len(set)*setIDNs < n*scanNs/w {
		// Scoring a set id by id costs ten times a row of the scan (see
		// plan.go), so only small sets are worth it.
		return e.scoreSet(q, k, set), nil
	}
	r := rows{dim: e.dim, vecs: e.vecs, ids: e.ids}
	return r.search(q, k, allowFunc(f), e.cfg.workers, e.cfg.parallelScanMin), nil
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
