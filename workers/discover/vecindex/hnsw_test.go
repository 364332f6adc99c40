package vecindex

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// TestHNSWRecallUnderChurn builds a graph, then removes, replaces and adds
// (the adds reuse the removed slots) and checks recall@10 against exact
// search over what is stored at the end.
func TestHNSWRecallUnderChurn(t *testing.T) {
	const dim, n = 32, 3000
	d := makeDataset(n+500, 50, dim, 11)
	h := must(NewHNSW(dim, WithSeed(5)))
	ex := must(NewExact(dim))
	put := func(id string, v []float32) {
		t.Helper()
		if err := h.Put(id, v); err != nil {
			t.Fatal(err)
		}
		if err := ex.Put(id, v); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		put(synthID(i), d.vec(i))
	}
	for i := 0; i < n; i += 5 { // remove a fifth
		h.Remove(synthID(i))
		ex.Remove(synthID(i))
	}
	readded := 0
	for i := 1; i < n; i += 7 { // move about a seventh to another item's vector
		put(synthID(i), d.vec(n+i%500))
		if i%5 == 0 {
			readded++
		}
	}
	for i := n; i < n+500; i++ { // new ids into freed slots
		put(synthID(i), d.vec(i))
	}
	if h.Len() != ex.Len() {
		t.Fatalf("Len %d, exact has %d", h.Len(), ex.Len())
	}
	if got, want := h.Tombstones(), n/5-readded-500; got != want {
		t.Fatalf("tombstones %d, want %d (removed minus reused)", got, want)
	}
	var sum float64
	for qi := range d.nq() {
		want := must(ex.Search(d.query(qi), 10, nil))
		got := must(h.Search(d.query(qi), 10, nil))
		sum += recall(got, want)
	}
	if r := sum / float64(d.nq()); r < 0.98 {
		t.Fatalf("recall@10 after churn = %.3f, want ≥ 0.98", r)
	}
}

// TestHNSWEntryPointReplaced replaces and removes the entry point, the one
// node every search starts from, and checks every node is still found.
func TestHNSWEntryPointReplaced(t *testing.T) {
	const dim = 8
	d := makeDataset(200, 0, dim, 2)
	h := must(NewHNSW(dim, WithM(4), WithSeed(9)))
	for i := range d.n() {
		must(0, h.Put(synthID(i), d.vec(i)))
	}
	for round := range 20 {
		entry := h.g.ids[h.g.entry]
		if round%2 == 0 {
			// A fresh direction for the entry.
			must(0, h.Put(entry, d.vec((round*37)%d.n())))
		} else if h.Remove(entry) {
			must(0, h.Put(entry, d.vec(round)))
		}
	}
	h.forEachLive(func(id string, v []float32) {
		hits := must(h.Search(v, 1, nil))
		if len(hits) != 1 || hits[0].Score < 0.9999 {
			t.Fatalf("%s not found by its own vector: %v", id, hits)
		}
	})
}

func TestHNSWPutBatch(t *testing.T) {
	const dim = 16
	d := makeDataset(1500, 20, dim, 4)
	ids := makeIDs(d.n())
	vecs := make([][]float32, d.n())
	for i := range vecs {
		vecs[i] = d.vec(i)
	}
	// A repeat within the batch and a replacement of a stored id: the last
	// vector given for an id wins, as with Put one by one.
	ids = append(ids, synthID(7), "pre")
	vecs = append(vecs, d.vec(8), d.vec(9))

	h := must(NewHNSW(dim, WithWorkers(2), WithEfSearch(1)))
	h.SetEfSearch(0) // ignored
	h.SetEfSearch(128)
	if ef := h.efSearch.Load(); ef != 128 {
		t.Fatalf("efSearch %d after SetEfSearch(128)", ef)
	}
	must(0, h.Put("pre", d.vec(0)))
	if err := h.PutBatch(ids, vecs); err != nil {
		t.Fatal(err)
	}
	if h.Len() != d.n()+1 {
		t.Fatalf("Len %d, want %d", h.Len(), d.n()+1)
	}
	for _, id := range []string{synthID(7), "pre"} {
		hits := must(h.Search(vecs[slices.Index(ids[d.n():], id)+d.n()], 2, IDs(id)))
		if len(hits) != 1 || hits[0].Score < 0.9999 {
			t.Fatalf("%s does not hold the batch's last vector for it: %v", id, hits)
		}
	}
	ex := must(NewExact(dim))
	for i := range ids {
		must(0, ex.Put(ids[i], vecs[i]))
	}
	var sum float64
	for qi := range d.nq() {
		sum += recall(must(h.Search(d.query(qi), 10, nil)), must(ex.Search(d.query(qi), 10, nil)))
	}
	if r := sum / float64(d.nq()); r < 0.98 {
		t.Fatalf("recall@10 of a parallel build = %.3f", r)
	}

	bad := [][]float32{d.vec(0), {1, 2}}
	if err := h.PutBatch([]string{"x", "y"}, bad); !errors.Is(err, ErrDimension) {
		t.Fatalf("bad batch: %v, want ErrDimension", err)
	}
	if err := h.PutBatch([]string{"x"}, bad); !errors.Is(err, ErrInvalidOption) {
		t.Fatalf("mismatched batch: %v, want ErrInvalidOption", err)
	}
	if h.Len() != d.n()+1 {
		t.Fatalf("a failed batch stored something: Len %d", h.Len())
	}
}

// TestHNSWPutBatchReachesEveryNode loads batches with many more linking
// goroutines than cores, so that inserters interleave at every point, and
// checks that every node can still be found: a node made reachable before
// its own lower lists were written once left about 1 in 20 unreachable.
func TestHNSWPutBatchReachesEveryNode(t *testing.T) {
	const dim, n = 16, 2000
	d := makeDataset(n, 0, dim, 11)
	ids := makeIDs(n)
	vecs := make([][]float32, n)
	for i := range vecs {
		vecs[i] = d.vec(i)
	}
	for _, workers := range []int{4, 16} {
		for seed := range uint64(3) {
			t.Run(fmt.Sprintf("%d workers, seed %d", workers, seed), func(t *testing.T) {
				h := must(NewHNSW(dim, WithM(8), WithWorkers(workers), WithSeed(seed), WithEfSearch(200)))
				must(0, h.PutBatch(ids, vecs))
				var lost []string
				for i, id := range ids {
					hits := must(h.Search(vecs[i], 1, nil))
					if len(hits) != 1 || hits[0].ID != id {
						lost = append(lost, id)
					}
				}
				if len(lost) > n/1000 {
					t.Fatalf("%d of %d nodes do not find themselves first, e.g. %v", len(lost), n, lost[:min(5, len(lost))])
				}
			})
		}
	}
}

// TestHNSWSelectiveFilters checks filtered searches stay exact whatever
// the selectivity, including filters so narrow that the graph search
// gives up and scans.
func TestHNSWSelectiveFilters(t *testing.T) {
	const dim = 16
	d := makeDataset(4000, 15, dim, 8)
	h := must(NewHNSW(dim, WithEfSearch(64)))
	stored := map[string][]float32{}
	for i := range d.n() {
		stored[synthID(i)] = d.vec(i)
		must(0, h.Put(synthID(i), d.vec(i)))
	}
	for _, every := range []int{2, 20, 200, 2000, 5000} {
		allow := func(id string) bool {
			var n int
			for _, c := range id[len("tool-"):] {
				n = n*10 + int(c-'0')
			}
			return n%every == 3%every
		}
		set := IDSet{}
		for id := range stored {
			if allow(id) {
				set[id] = struct{}{}
			}
		}
		for _, f := range []Filter{AllowFunc(allow), set} {
			var sum float64
			for qi := range d.nq() {
				got := must(h.Search(d.query(qi), 10, f))
				want := reference(stored, d.query(qi), 10, allow)
				for _, hit := range got {
					if !allow(hit.ID) {
						t.Fatalf("1/%d %T: %s is not allowed", every, f, hit.ID)
					}
				}
				if len(got) != len(want) {
					t.Fatalf("1/%d %T: %d hits, want %d", every, f, len(got), len(want))
				}
				sum += recall(got, want)
			}
			if r := sum / float64(d.nq()); r < 0.98 {
				t.Errorf("1/%d %T: recall@10 %.3f", every, f, r)
			}
		}
	}
}

// TestHNSWMisjudgedFilterFallsBack gives the plan a predicate that looks
// permissive on its sample and then allows three ids: the graph search
// runs out of budget and the scan must still find exactly those three.
func TestHNSWMisjudgedFilterFallsBack(t *testing.T) {
	const dim, n = 16, 6000
	d := makeDataset(n, 5, dim, 21)
	h := must(NewHNSW(dim, WithEfSearch(64)))
	stored := map[string][]float32{}
	for i := range n {
		stored[synthID(i)] = d.vec(i)
		must(0, h.Put(synthID(i), d.vec(i)))
	}
	few := IDs(synthID(11), synthID(2222), synthID(5999))
	sampled := selectivitySample // calls the plan makes, none of them dead
	for qi := range d.nq() {
		calls := 0
		lying := AllowFunc(func(id string) bool {
			calls++
			return calls <= sampled || few.Allow(id)
		})
		got := must(h.Search(d.query(qi), 10, lying))
		want := reference(stored, d.query(qi), 10, few.Allow)
		if !slices.Equal(hitIDs(got), hitIDs(want)) {
			t.Fatalf("query %d: got %v, want %v", qi, hitIDs(got), hitIDs(want))
		}
	}
}
