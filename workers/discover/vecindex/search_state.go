package vecindex

// searchState is the scratch one graph search needs, pooled so that a
// query does not allocate a visited set the size of the graph.
type searchState struct {
	// visited: the slots this search has visited.
	visited Marks[uint16]

	cands []scored               // max-heap: the nearest unexpanded candidate on top
	res   []scored               // min-heap: the worst kept result on top
	buf   []uint32               // a copied link list, while a batch runs
	todo  []uint32               // unvisited neighbours of the node being expanded
	sel   []scored               // neighbour selection
	links [maxLevel + 1][]scored // the links an insertion chose, per layer
	pool  []scored               // candidates when a full list is pruned
}

// begin readies the state for a search over n slots.
func (st *searchState) begin(n int) {
	st.visited.Begin(n)
	st.cands = st.cands[:0]
	st.res = st.res[:0]
}

// visit marks s and reports whether this is its first visit.
func (st *searchState) visit(s uint32) bool { return st.visited.Visit(int(s)) }

func (st *searchState) pushCand(c scored) {
	h := append(st.cands, c)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h[p].score >= h[i].score {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	st.cands = h
}

func (st *searchState) popCand() scored {
	h := st.cands
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h[r].score > h[l].score {
			m = r
		}
		if h[m].score <= h[i].score {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	st.cands = h
	return top
}

func (st *searchState) pushRes(c scored) {
	h := append(st.res, c)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h[p].score <= h[i].score {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	st.res = h
}

func (st *searchState) popRes() {
	h := st.res
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h[r].score < h[l].score {
			m = r
		}
		if h[m].score >= h[i].score {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	st.res = h
}
