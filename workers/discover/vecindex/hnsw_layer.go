package vecindex

// layerQuery is one search of one layer.
type layerQuery struct {
	q     []float32
	ef    int
	level int
	// exclude is the node being inserted: its own links are being rebuilt,
	// so it is neither expanded nor returned. noSlot for queries.
	exclude uint32
	// allow filters results (nil: every live node). Filtered-out and
	// removed nodes still route the search, as in hnswlib, so a filter
	// never disconnects the graph.
	allow func(string) bool
	// budget caps dot products; 0 means none. A selective filter makes a
	// search wander until ef allowed nodes are found, and past this it is
	// cheaper to scan.
	budget int
}

// greedy walks level from ep to the node most similar to q, the way a
// search descends through the upper layers.
func (h *HNSW) greedy(st *searchState, q []float32, ep uint32, epScore float32, level int, exclude uint32) (uint32, float32) {
	g := &h.g
	for changed := true; changed; {
		changed = false
		for _, nb := range g.neighbors(ep, level, &st.buf) {
			if nb == exclude {
				continue
			}
			if s := dot(q, g.vec(nb)); s > epScore {
				ep, epScore, changed = nb, s, true
			}
		}
	}
	return ep, epScore
}

// searchLayer is the beam search of one layer (the paper's algorithm 2):
// expand the nearest unexpanded candidate until it is worse than the worst
// of the ef results kept. Results are left in st.res; it reports whether
// the budget ran out first.
func (h *HNSW) searchLayer(st *searchState, lq *layerQuery, ep uint32, epScore float32) (exhausted bool) {
	g := &h.g
	st.begin(g.slots())
	if lq.exclude != noSlot {
		st.visit(lq.exclude)
	}
	st.visit(ep)
	st.pushCand(scored{ep, epScore})
	if h.admit(lq, ep) {
		st.pushRes(scored{ep, epScore})
	}
	evals := 0
	for len(st.cands) > 0 {
		c := st.popCand()
		if len(st.res) >= lq.ef && c.score < st.res[0].score {
			break
		}
		// Prefetch every unvisited neighbour before scoring any, so the
		// cache misses overlap instead of queueing.
		todo := st.todo[:0]
		for _, nb := range g.neighbors(c.slot, lq.level, &st.buf) {
			if st.visit(nb) {
				todo = append(todo, nb)
				prefetch(&g.vecs[int(nb)*g.dim], g.dim)
			}
		}
		st.todo = todo
		for _, nb := range todo {
			s := dot(lq.q, g.vec(nb))
			evals++
			if len(st.res) >= lq.ef && s <= st.res[0].score {
				continue
			}
			st.pushCand(scored{nb, s})
			// The filter is asked only here, for a node good enough to
			// be kept, not for every node the search passes.
			if h.admit(lq, nb) {
				st.pushRes(scored{nb, s})
				if len(st.res) > lq.ef {
					st.popRes()
				}
			}
		}
		if lq.budget > 0 && evals > lq.budget {
			return true
		}
	}
	return false
}

func (h *HNSW) admit(lq *layerQuery, s uint32) bool {
	if s == lq.exclude || h.g.dead[s] {
		return false
	}
	return lq.allow == nil || lq.allow(h.g.ids[s])
}

// sortedResults returns st.res best first (consuming the heap).
func (st *searchState) sortedResults() []scored {
	sortDesc(st.res)
	return st.res
}
