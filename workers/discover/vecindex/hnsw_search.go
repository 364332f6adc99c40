package vecindex

import (
	"fmt"
	"math"
)

// Search returns about the k stored vectors most similar to query, best
// first. With a filter it stays correct however selective the filter is:
// a small IDSet is scored directly, and a search that cannot find k allowed
// nodes within its budget finishes with an exact scan.
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
	if set, ok := f.(IDSet); ok && len(set) <= setScanMax(live, ef) {
		return h.scoreSet(q, k, set), nil
	}
	allow := allowFunc(f)
	g := &h.g
	st := h.state()
	defer h.states.Put(st)

	ep := g.entry
	epScore := dot(q, g.vec(ep))
	for l := g.maxLevel; l > 0; l-- {
		ep, epScore = h.greedy(st, q, ep, epScore, l, noSlot)
	}
	lq := layerQuery{q: q, ef: ef, exclude: noSlot, allow: allow, budget: searchBudget(g.slots(), ef)}
	exhausted := h.searchLayer(st, &lq, ep, epScore)
	if exhausted || len(st.res) < min(k, live) {
		// Too few allowed nodes near the query (a selective filter), or
		// live nodes cut off behind tombstones: only a scan is sure.
		return h.scan(q, k, allow), nil
	}
	t := newTopK(k, g.ids)
	for _, c := range st.res {
		t.offer(c.slot, c.score)
	}
	return t.hits(), nil
}

// setScanMax is the largest IDSet that is cheaper to score id by id (a map
// lookup and a dot product each) than to search the graph for. A search
// for ef results where a fraction s of nodes is allowed costs about
// ef·c/s dot products, a direct scoring 2·s·n; they are equal at
// s = sqrt(ef·c/2n). c ≈ 30 was measured from unfiltered searches.
func setScanMax(live, ef int) int {
	n := float64(live)
	s := math.Sqrt(float64(ef) * 30 / (2 * n))
	return max(int(s*n), 4*ef)
}

// searchBudget caps a filtered search's dot products at an eighth of a
// full scan (plus room for a normal search on small graphs), so a filter
// that allows almost nothing costs at most 1.125 scans.
func searchBudget(slots, ef int) int {
	return max(slots/8, 64*ef)
}

// scan scores every live node: exact, for when the graph cannot help.
func (h *HNSW) scan(q []float32, k int, allow func(string) bool) []Hit {
	g := &h.g
	t := newTopK(k, g.ids)
	for s, dead := range g.dead {
		if dead {
			continue
		}
		slot := uint32(s)
		score := dot(q, g.vec(slot))
		if !t.wants(slot, score) {
			continue
		}
		if allow != nil && !allow(g.ids[s]) {
			continue
		}
		t.push(slot, score)
	}
	return t.hits()
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
