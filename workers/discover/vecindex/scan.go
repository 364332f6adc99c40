package vecindex

import "sync"

// rows is what a scan reads: contiguous unit vectors and their ids, with
// removed rows marked in dead (nil when there are none). Exact answers
// every search with a scan; HNSW falls back to one when a filter is too
// selective for the graph.
type rows struct {
	dim  int
	vecs []float32
	ids  []string
	dead []bool
}

// search scores every row and returns the k best, splitting the rows
// across up to workers goroutines once there are parallelMin of them.
func (r rows) search(q []float32, k int, allow func(string) bool, workers, parallelMin int) []Hit {
	n := len(r.ids)
	w := min(workers, n)
	if n < parallelMin || w < 2 {
		t := newTopK(k, r.ids)
		r.scan(&t, q, 0, n, allow)
		return t.hits()
	}
	parts := make([]topK, w)
	var wg sync.WaitGroup
	for p := range parts {
		parts[p] = newTopK(k, r.ids)
		lo, hi := p*n/w, (p+1)*n/w
		wg.Go(func() { r.scan(&parts[p], q, lo, hi, allow) })
	}
	wg.Wait()
	t := newTopK(k, r.ids)
	for _, part := range parts {
		for _, c := range part.h {
			t.offer(c.slot, c.score)
		}
	}
	return t.hits()
}

// scan offers rows [lo, hi) to t, checking the filter only for rows good
// enough to enter it.
func (r rows) scan(t *topK, q []float32, lo, hi int, allow func(string) bool) {
	d := r.dim
	vecs := r.vecs[lo*d : hi*d]
	for i := lo; i < hi; i++ {
		row := vecs[:d:d]
		vecs = vecs[d:]
		if r.dead != nil && r.dead[i] {
			continue
		}
		s := dot(q, row)
		slot := uint32(i)
		if !t.wants(slot, s) {
			continue
		}
		if allow != nil && !allow(r.ids[i]) {
			continue
		}
		t.push(slot, s)
	}
}
