package vecindex

import "slices"

// scored is a row or graph node with its similarity to the query.
type scored struct {
	slot  uint32
	score float32
}

// topK keeps the k best rows seen so far in a min-heap, worst at the root,
// so that the common case (a row no better than the worst kept) costs one
// comparison. Ties are broken by id so results do not depend on storage
// order, which swap-removal and parallel scans change.
type topK struct {
	k   int
	ids []string
	h   []scored
}

func newTopK(k int, ids []string) topK {
	return topK{k: k, ids: ids, h: make([]scored, 0, k)}
}

// worse reports whether a ranks below b.
func (t *topK) worse(a, b scored) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	return t.ids[a.slot] > t.ids[b.slot]
}

// wants reports whether a row would enter the heap, before the caller pays
// for its filter check.
func (t *topK) wants(slot uint32, score float32) bool {
	return len(t.h) < t.k || t.worse(t.h[0], scored{slot, score})
}

// push adds a row that wants said would enter.
func (t *topK) push(slot uint32, score float32) {
	c := scored{slot, score}
	if len(t.h) < t.k {
		t.h = append(t.h, c)
		t.up(len(t.h) - 1)
		return
	}
	t.h[0] = c
	t.down(0)
}

func (t *topK) offer(slot uint32, score float32) {
	if t.wants(slot, score) {
		t.push(slot, score)
	}
}

func (t *topK) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !t.worse(t.h[i], t.h[p]) {
			return
		}
		t.h[i], t.h[p] = t.h[p], t.h[i]
		i = p
	}
}

func (t *topK) down(i int) {
	n := len(t.h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && t.worse(t.h[r], t.h[l]) {
			m = r
		}
		if !t.worse(t.h[m], t.h[i]) {
			return
		}
		t.h[i], t.h[m] = t.h[m], t.h[i]
		i = m
	}
}

// hits returns the kept rows best first.
func (t *topK) hits() []Hit {
	if len(t.h) == 0 {
		return nil
	}
	slices.SortFunc(t.h, func(a, b scored) int {
		switch {
		case t.worse(b, a):
			return -1
		case t.worse(a, b):
			return 1
		}
		return 0
	})
	out := make([]Hit, len(t.h))
	for i, c := range t.h {
		out[i] = Hit{ID: t.ids[c.slot], Score: c.score}
	}
	return out
}
