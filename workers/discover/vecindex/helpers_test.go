package vecindex

import (
	"cmp"
	"slices"
	"testing"
)

// kinds builds each index type the shared tests run against. The graph's
// efSearch exceeds the few hundred vectors these tests store, so a search
// visits every node it can reach and must agree with the brute-force
// reference exactly; recall at realistic settings is tested separately.
var kinds = []struct {
	name string
	new  func(t testing.TB, dim int) Index
}{
	{"exact", func(t testing.TB, dim int) Index { return must(NewExact(dim)) }},
	{"exact-parallel", func(t testing.TB, dim int) Index {
		return must(NewExact(dim, WithWorkers(3), WithParallelScanMin(1)))
	}},
	{"hnsw", func(t testing.TB, dim int) Index { return must(NewHNSW(dim, WithM(8), WithEfSearch(1000))) }},
	{"auto", func(t testing.TB, dim int) Index {
		a := must(NewAuto(dim, 64, WithM(8), WithEfSearch(1000)))
		t.Cleanup(a.Wait)
		return a
	}},
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// reference is the brute-force answer: every allowed vector scored with the
// same normalisation and kernel the indexes use, ordered by score and id.
func reference(stored map[string][]float32, query []float32, k int, allow func(string) bool) []Hit {
	q := must(normalized(query, len(query)))
	var all []Hit
	for id, v := range stored {
		if allow != nil && !allow(id) {
			continue
		}
		all = append(all, Hit{ID: id, Score: dot(q, must(normalized(v, len(v))))})
	}
	slices.SortFunc(all, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	if len(all) > k {
		all = all[:k]
	}
	if len(all) == 0 {
		return nil
	}
	return all
}

func hitIDs(hits []Hit) []string {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	return ids
}

// recall is the share of want's ids that got found.
func recall(got, want []Hit) float64 {
	if len(want) == 0 {
		return 1
	}
	in := make(map[string]bool, len(got))
	for _, h := range got {
		in[h.ID] = true
	}
	n := 0
	for _, h := range want {
		if in[h.ID] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}
