package vecindex

import (
	"errors"
	"fmt"
	"testing"
)

// TestAutoPutBatch loads an Auto in batches: below the threshold it stays
// exact, the batch that reaches it leaves a graph in place when it returns,
// repeated ids keep their last vector, and an invalid vector stores nothing.
func TestAutoPutBatch(t *testing.T) {
	const dim, threshold = 16, 300
	d := makeDataset(1000, 0, dim, 5)
	ids := func(lo, hi int) ([]string, [][]float32) {
		var is []string
		var vs [][]float32
		for i := lo; i < hi; i++ {
			is = append(is, synthID(i))
			vs = append(vs, d.vec(i))
		}
		return is, vs
	}
	tests := []struct {
		name       string
		batches    [][2]int // [lo, hi) of the dataset, in order
		wantApprox bool
	}{
		{"one batch under the threshold", [][2]int{{0, threshold - 1}}, false},
		{"one batch over it", [][2]int{{0, 800}}, true},
		{"exact, then a batch crossing it", [][2]int{{0, 200}, {200, 700}}, true},
		{"graph, then another batch", [][2]int{{0, 500}, {500, 900}}, true},
		{"a batch repeating stored ids", [][2]int{{0, 250}, {100, 600}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A wide search beam: the test asks whether the graph holds every
			// vector, not how recall trades against speed at the default beam
			// (a parallel build differs run to run, and at the default some
			// runs landed just under the bar).
			a := must(NewAuto(dim, threshold, WithM(8), WithEfSearch(200)))
			stored := map[string][]float32{}
			for _, b := range tt.batches {
				is, vs := ids(b[0], b[1])
				if err := a.PutBatch(is, vs); err != nil {
					t.Fatal(err)
				}
				for i, id := range is {
					stored[id] = vs[i]
				}
			}
			if a.Approximate() != tt.wantApprox {
				t.Fatalf("approximate=%v right after the batch, want %v", a.Approximate(), tt.wantApprox)
			}
			if a.Len() != len(stored) {
				t.Fatalf("Len %d, want %d", a.Len(), len(stored))
			}
			var found int
			for id, v := range stored {
				hits := must(a.Search(v, 1, nil))
				if len(hits) == 1 && hits[0].ID == id {
					found++
				}
			}
			if r := float64(found) / float64(len(stored)); r < 0.98 {
				t.Fatalf("each stored vector finds itself first for only %.3f of them", r)
			}
		})
	}
}

func TestAutoPutBatchInvalid(t *testing.T) {
	const dim, threshold = 8, 50
	d := makeDataset(200, 0, dim, 3)
	for _, n := range []int{10, 120} { // under and over the threshold
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			a := must(NewAuto(dim, threshold))
			var is []string
			var vs [][]float32
			for i := range n {
				is = append(is, synthID(i))
				vs = append(vs, d.vec(i))
			}
			vs[n/2] = make([]float32, dim-1) // wrong dimension
			if err := a.PutBatch(is, vs); err == nil {
				t.Fatal("a batch with a vector of the wrong dimension was accepted")
			}
			is[n/2], vs[n/2] = "", d.vec(n/2)
			if err := a.PutBatch(is, vs); !errors.Is(err, ErrEmptyID) {
				t.Fatalf("empty id: err = %v, want ErrEmptyID", err)
			}
			if a.Len() != 0 {
				t.Fatalf("a failed batch stored %d vectors", a.Len())
			}
		})
	}
}
