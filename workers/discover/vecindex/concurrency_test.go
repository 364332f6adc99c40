package vecindex

import (
	"sync"
	"testing"
)

// TestConcurrentUse runs writers and searchers together on every kind of
// index; run it with -race. The Auto crosses its threshold and back while
// it runs, so the background build and both switches race with the rest.
func TestConcurrentUse(t *testing.T) {
	const dim = 16
	d := makeDataset(900, 30, dim, 12)
	for _, kind := range kinds {
		t.Run(kind.name, func(t *testing.T) {
			idx := kind.new(t, dim)
			var wg sync.WaitGroup
			for w := range 2 {
				wg.Go(func() {
					for i := w; i < d.n(); i += 2 {
						if err := idx.Put(synthID(i), d.vec(i)); err != nil {
							t.Error(err)
							return
						}
						if i%3 == 0 {
							idx.Remove(synthID(i / 2))
						}
					}
					for i := w; i < d.n(); i += 2 {
						idx.Remove(synthID(i))
					}
				})
			}
			for s := range 2 {
				wg.Go(func() {
					for i := range 300 {
						f := Filter(nil)
						if i%4 == s {
							f = IDs(synthID(i), synthID(i+1))
						}
						hits, err := idx.Search(d.query(i%d.nq()), 5, f)
						if err != nil {
							t.Error(err)
							return
						}
						for j := 1; j < len(hits); j++ {
							if hits[j].Score > hits[j-1].Score {
								t.Errorf("hits out of order: %v", hits)
								return
							}
						}
					}
				})
			}
			wg.Wait()
			if a, ok := idx.(*Auto); ok {
				a.Wait()
			}
			if idx.Len() != 0 {
				t.Fatalf("Len %d after removing everything", idx.Len())
			}
		})
	}
}
