package vecindex

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestSearchMatchesBruteForce(t *testing.T) {
	const dim = 16
	d := makeDataset(600, 40, dim, 3)
	stored := map[string][]float32{}
	for i := range d.n() {
		stored[synthID(i)] = d.vec(i)
	}
	evens := func(id string) bool { return (id[len(id)-1]-'0')%2 == 0 }
	few := IDs(synthID(3), synthID(77), synthID(500), "not-stored")
	cases := []struct {
		name   string
		k      int
		filter Filter
		allow  func(string) bool
	}{
		{"top1", 1, nil, nil},
		{"top10", 10, nil, nil},
		{"k beyond n", 1000, nil, nil},
		{"predicate", 10, AllowFunc(evens), evens},
		{"small set", 10, few, few.Allow},
		{"large set", 10, setOf(stored, 0.5), nil},
		{"empty set", 10, IDs(), func(string) bool { return false }},
		{"nil set allows nothing", 10, IDSet(nil), func(string) bool { return false }},
		{"custom filter", 10, prefixFilter("tool-00001"), prefixFilter("tool-00001").Allow},
		{"nil predicate", 10, AllowFunc(nil), nil},
	}
	for _, kind := range kinds {
		idx := kind.new(t, dim)
		for id, v := range stored {
			if err := idx.Put(id, v); err != nil {
				t.Fatal(err)
			}
		}
		if a, ok := idx.(*Auto); ok {
			a.Wait()
			if !a.Approximate() {
				t.Fatalf("auto: still exact at %d vectors, threshold 64", a.Len())
			}
		}
		for _, c := range cases {
			allow := c.allow
			if set, ok := c.filter.(IDSet); ok && allow == nil {
				allow = set.Allow
			}
			t.Run(kind.name+"/"+c.name, func(t *testing.T) {
				for qi := range d.nq() {
					got, err := idx.Search(d.query(qi), c.k, c.filter)
					if err != nil {
						t.Fatal(err)
					}
					want := reference(stored, d.query(qi), c.k, allow)
					if !slices.Equal(hitIDs(got), hitIDs(want)) {
						t.Fatalf("query %d:\n got %v\nwant %v", qi, got, want)
					}
					for i := range got {
						if math.Abs(float64(got[i].Score-want[i].Score)) > 1e-6 {
							t.Fatalf("query %d hit %d: score %v, want %v", qi, i, got[i].Score, want[i].Score)
						}
					}
				}
			})
		}
	}
}

// prefixFilter is a Filter of a type the indexes know nothing about.
type prefixFilter string

func (p prefixFilter) Allow(id string) bool { return strings.HasPrefix(id, string(p)) }

// setOf picks about a fraction of the stored ids, deterministically.
func setOf(stored map[string][]float32, frac float64) IDSet {
	s := IDSet{}
	i := 0
	for _, id := range slices.Sorted(mapKeys(stored)) {
		if float64(i%100) < frac*100 {
			s[id] = struct{}{}
		}
		i++
	}
	return s
}

func mapKeys(m map[string][]float32) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func TestEdgeCases(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	for _, kind := range kinds {
		t.Run(kind.name, func(t *testing.T) {
			idx := kind.new(t, 3)
			if idx.Dim() != 3 {
				t.Fatalf("Dim %d, want 3", idx.Dim())
			}
			if hits, err := idx.Search([]float32{1, 0, 0}, 5, nil); err != nil || hits != nil {
				t.Fatalf("empty index: %v, %v; want no hits, no error", hits, err)
			}
			putErrs := []struct {
				id   string
				vec  []float32
				want error
			}{
				{"a", []float32{1, 0}, ErrDimension},
				{"a", []float32{1, 0, 0, 0}, ErrDimension},
				{"a", nil, ErrDimension},
				{"a", []float32{nan, 0, 0}, ErrInvalidVector},
				{"a", []float32{0, inf, 0}, ErrInvalidVector},
				{"a", []float32{0, 0, 0}, ErrInvalidVector},
				{"", []float32{1, 0, 0}, ErrEmptyID},
			}
			for _, c := range putErrs {
				if err := idx.Put(c.id, c.vec); !errors.Is(err, c.want) {
					t.Errorf("Put(%q, %v) = %v, want %v", c.id, c.vec, err, c.want)
				}
			}
			if idx.Len() != 0 {
				t.Fatalf("Len after failed puts = %d, want 0", idx.Len())
			}
			// Ties: the same direction under three ids, at different norms.
			for _, id := range []string{"c", "a", "b"} {
				if err := idx.Put(id, []float32{2, 0, 0}); err != nil {
					t.Fatal(err)
				}
			}
			if err := idx.Put("far", []float32{0, 5, 0}); err != nil {
				t.Fatal(err)
			}
			searchErrs := []struct {
				q    []float32
				want error
			}{
				{[]float32{1, 0}, ErrDimension},
				{[]float32{nan, 1, 0}, ErrInvalidVector},
				{[]float32{0, 0, 0}, ErrInvalidVector},
			}
			for _, c := range searchErrs {
				if _, err := idx.Search(c.q, 3, nil); !errors.Is(err, c.want) {
					t.Errorf("Search(%v) = %v, want %v", c.q, err, c.want)
				}
			}
			for _, k := range []int{0, -1} {
				if hits, err := idx.Search([]float32{1, 0, 0}, k, nil); err != nil || hits != nil {
					t.Errorf("k=%d: %v, %v; want no hits", k, hits, err)
				}
			}
			hits := must(idx.Search([]float32{3, 0, 0}, 10, nil))
			if got := strings.Join(hitIDs(hits), ","); got != "a,b,c,far" {
				t.Fatalf("ties: got %s, want a,b,c,far (by score, then id)", got)
			}
			if math.Abs(float64(hits[0].Score)-1) > 1e-6 || math.Abs(float64(hits[3].Score)) > 1e-6 {
				t.Fatalf("scores %v, want cosine 1 for the same direction and 0 for orthogonal", hits)
			}

			// Replace keeps the count and moves the vector.
			if err := idx.Put("far", []float32{1, 0.01, 0}); err != nil {
				t.Fatal(err)
			}
			if idx.Len() != 4 {
				t.Fatalf("Len after replace = %d, want 4", idx.Len())
			}
			hits = must(idx.Search([]float32{0, 1, 0}, 1, nil))
			if hits[0].ID != "far" || hits[0].Score > 0.02 {
				t.Fatalf("after replace: %v, want far with cosine ≈0.01", hits)
			}

			if !idx.Remove("a") || idx.Remove("a") || idx.Remove("never") {
				t.Fatal("Remove: want true once for a stored id, then false")
			}
			hits = must(idx.Search([]float32{1, 0, 0}, 10, nil))
			if got := strings.Join(hitIDs(hits), ","); got != "b,c,far" {
				t.Fatalf("after remove: %s, want b,c,far", got)
			}
			for _, id := range []string{"b", "c", "far"} {
				idx.Remove(id)
			}
			if hits := must(idx.Search([]float32{1, 0, 0}, 10, nil)); hits != nil || idx.Len() != 0 {
				t.Fatalf("all removed: %v, Len %d", hits, idx.Len())
			}
			// Slots left by removals are reused.
			if err := idx.Put("again", []float32{0, 0, 1}); err != nil {
				t.Fatal(err)
			}
			if hits := must(idx.Search([]float32{0, 0, 1}, 10, nil)); len(hits) != 1 || hits[0].ID != "again" {
				t.Fatalf("re-added: %v", hits)
			}
		})
	}
}

func TestConstructorsRejectBadOptions(t *testing.T) {
	bad := []struct {
		dim  int
		opts []Option
	}{
		{0, nil},
		{-3, nil},
		{8, []Option{WithM(1)}},
		{8, []Option{WithEfConstruction(0)}},
		{8, []Option{WithEfSearch(0)}},
		{8, []Option{WithWorkers(0)}},
		{8, []Option{WithParallelScanMin(0)}},
	}
	for _, c := range bad {
		name := fmt.Sprintf("dim=%d/%d-opts", c.dim, len(c.opts))
		if _, err := NewExact(c.dim, c.opts...); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("%s: NewExact err %v", name, err)
		}
		if _, err := NewHNSW(c.dim, c.opts...); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("%s: NewHNSW err %v", name, err)
		}
		if _, err := NewAuto(c.dim, 0, c.opts...); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("%s: NewAuto err %v", name, err)
		}
	}
}
