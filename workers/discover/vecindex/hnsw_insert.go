package vecindex

import "slices"

// insert links slot into the graph: find its nearest nodes layer by layer
// from the top, keep a diverse subset as its links, and link them back.
// The caller holds mu for writing, or runs inside a batch (see PutBatch).
func (h *HNSW) insert(st *searchState, slot uint32) {
	g := &h.g
	level := int(g.levels[slot])
	q := g.vec(slot)

	h.entryMu.Lock()
	top, ep := g.maxLevel, g.entry
	if top < 0 {
		g.entry, g.maxLevel = slot, level
		h.entryMu.Unlock()
		return
	}
	if level <= top {
		h.entryMu.Unlock()
	} else {
		// A new top node becomes the entry point; other inserters must
		// not start from a half-linked one, so they wait for it.
		defer h.entryMu.Unlock()
	}

	epScore := dot(q, g.vec(ep))
	for l := top; l > level; l-- {
		ep, epScore = h.greedy(st, q, ep, epScore, l, slot)
	}
	// slot's own lists first, on every layer, and only then the links
	// back to it. Until a back-link exists no other inserter of a batch
	// can reach slot; linking back layer by layer instead made slot
	// reachable on an upper layer while its lower lists were still empty,
	// and an inserter that descended into it found nothing else below and
	// ended with slot as its only link (and its back-link overwritten when
	// slot then wrote its own list): about 1 node in 20 could no longer be
	// found in a parallel load with more goroutines than cores.
	lq := layerQuery{q: q, ef: h.cfg.efConstruction, exclude: slot}
	for l := min(level, top); l >= 0; l-- {
		st.links[l] = st.links[l][:0]
		lq.level = l
		h.searchLayer(st, &lq, ep, epScore)
		found := st.sortedResults()
		if len(found) == 0 {
			continue
		}
		ep, epScore = found[0].slot, found[0].score
		// New nodes take M links on every layer, like hnswlib; layer 0
		// allows 2·M so that back-links have room. link re-runs the
		// selection into st.sel, so keep ours apart.
		links := append(st.links[l], h.selectNeighbors(st, found, h.cfg.m)...)
		st.links[l] = links
		g.lock(slot)
		list := g.list(slot, l)
		list[0] = uint32(len(links))
		for i, c := range links {
			list[1+i] = c.slot
		}
		g.unlock(slot)
	}
	for l := min(level, top); l >= 0; l-- {
		for _, c := range st.links[l] {
			h.link(st, c.slot, slot, c.score, l)
		}
	}
	if level > top {
		g.entry, g.maxLevel = slot, level
	}
}

// link adds to to the links of from at level, pruning from's list with the
// neighbour heuristic when it is full. score is their similarity.
func (h *HNSW) link(st *searchState, from, to uint32, score float32, level int) {
	g := &h.g
	capacity := g.m
	if level == 0 {
		capacity = g.m0
	}
	g.lock(from)
	defer g.unlock(from)
	list := g.list(from, level)
	n := int(list[0])
	if slices.Contains(list[1:1+n], to) {
		return
	}
	if n < capacity {
		list[1+n] = to
		list[0]++
		return
	}
	// Full: choose again among the current links and the newcomer. Removed
	// nodes are dropped here, which is how lists shed tombstones over time.
	base := g.vec(from)
	pool := append(st.pool[:0], scored{to, score})
	for _, s := range list[1 : 1+n] {
		if !g.dead[s] {
			pool = append(pool, scored{s, dot(base, g.vec(s))})
		}
	}
	sortDesc(pool)
	links := h.selectNeighbors(st, pool, capacity)
	list[0] = uint32(len(links))
	for i, c := range links {
		list[1+i] = c.slot
	}
	st.pool = pool
}

// selectNeighbors is the HNSW heuristic (the paper's algorithm 4): take
// candidates nearest first, skipping one that is nearer to an already
// chosen link than to the base node. Links then point in different
// directions rather than all into the node's own cluster, which is what
// lets a greedy search cross between clusters.
// cands is sorted best first; the result aliases st.sel.
func (h *HNSW) selectNeighbors(st *searchState, cands []scored, m int) []scored {
	if len(cands) <= m {
		st.sel = append(st.sel[:0], cands...)
		return st.sel
	}
	g := &h.g
	sel := st.sel[:0]
	for _, c := range cands {
		if len(sel) >= m {
			break
		}
		v := g.vec(c.slot)
		keep := true
		for _, s := range sel {
			if dot(v, g.vec(s.slot)) > c.score {
				keep = false
				break
			}
		}
		if keep {
			sel = append(sel, c)
		}
	}
	st.sel = sel
	return sel
}

func sortDesc(s []scored) {
	slices.SortFunc(s, func(a, b scored) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
}
