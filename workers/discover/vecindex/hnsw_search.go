package vecindex

import "fmt"

// Search returns about the k stored vectors most similar to query, best
// first. A filtered search stays correct however selective its filter:
// plan picks the graph, a scan, or scoring an IDSet id by id, whichever is
// cheapest, and a graph search that still cannot find k allowed nodes
// within its budget finishes with a scan.
func (h *HNSW) Search(query []float32, k int, f Filter) ([]Hit, error) {
	q, err := normalized(query, h.dim)
	if err != nil {
		return nil, fmt.Errorf("graph search: %w", err)
	}
	if k <= 0 {
		return nil, nil
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	live := len(h.slotOf)
	if live == 0 {
		return nil, nil
	}
	ef := max(int(h.efSearch.Load()), k)
	allow := allowFunc(f)
	if allow != nil {
		s := h.selectivity(f, live)
		ef = filteredEf(ef, k, s)
		switch h.plan(f, s, ef) {
		case useSet:
			return h.scoreSet(q, k, f.(IDSet)), nil
		case useScan:
			return h.scan(q, k, allow), nil
		}
	}
	g := &h.g
	st := h.state()
	defer h.states.Put(st)

	ep := g.entry
	epScore := dot(q, g.vec(ep))
	for l := g.maxLevel; l > 0; l-- {
		ep, epScore = h.greedy(st, q, ep, epScore, l, noSlot)
	}
	lq := layerQuery{q: q, ef: ef, exclude: noSlot, allow: allow, budget: searchBudget(g.slots())}
	exhausted := h.searchLayer(st, &lq, ep, epScore)
	if exhausted || len(st.res) < min(k, live) {
		// Fewer allowed nodes near the query than estimated, or live
		// nodes cut off behind tombstones: only a scan is sure.
		return h.scan(q, k, allow), nil
	}
	t := newTopK(k, g.ids)
	for _, c := range st.res {
		t.offer(c.slot, c.score)
	}
	return t.hits(), nil
}

// scan scores every live node: exact, for when the graph cannot help.
func (h *HNSW) scan(q []float32, k int, allow func(string) bool) []Hit {
	g := &h.g
	r := rows{dim: g.dim, vecs: g.vecs, ids: g.ids, dead: g.dead}
	return r.search(q, k, allow, h.cfg.workers, h.cfg.parallelScanMin)
}

func (h *HNSW) scoreSet(q []float32, k int, set IDSet) []Hit {
	t := newTopK(k, h.g.ids)
	for id := range set {
		if slot, ok := h.slotOf[id]; ok {
			t.offer(slot, dot(q, h.g.vec(slot)))
		}
	}
	return t.hits()
}
