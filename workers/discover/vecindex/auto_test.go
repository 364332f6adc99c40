package vecindex

import (
	"testing"
)

// TestAutoLifecycle walks an Auto through both switches and a rebuild,
// writing while the background build runs, and checks after each step that
// the index holds exactly what was written.
func TestAutoLifecycle(t *testing.T) {
	const dim, threshold = 16, 400
	d := makeDataset(1200, 0, dim, 6)
	a := must(NewAuto(dim, threshold, WithM(8)))
	defer a.Wait()
	stored := map[string][]float32{}
	put := func(i int) {
		t.Helper()
		if err := a.Put(synthID(i), d.vec(i)); err != nil {
			t.Fatal(err)
		}
		stored[synthID(i)] = d.vec(i)
	}
	remove := func(i int) {
		t.Helper()
		if a.Remove(synthID(i)) != (stored[synthID(i)] != nil) {
			t.Fatalf("Remove(%s) disagrees with what was stored", synthID(i))
		}
		delete(stored, synthID(i))
	}
	check := func(step string, wantApprox bool) {
		t.Helper()
		a.Wait()
		if a.Approximate() != wantApprox {
			t.Fatalf("%s: approximate=%v, want %v", step, a.Approximate(), wantApprox)
		}
		if a.Len() != len(stored) {
			t.Fatalf("%s: Len %d, want %d", step, a.Len(), len(stored))
		}
		for id, v := range stored {
			hits := must(a.Search(v, 1, IDs(id)))
			if len(hits) != 1 || hits[0].Score < 0.9999 {
				t.Fatalf("%s: %s lost or stale: %v", step, id, hits)
			}
		}
		if hits := must(a.Search(d.vec(0), len(stored)+5, nil)); len(hits) != len(stored) {
			t.Fatalf("%s: unfiltered search found %d of %d", step, len(hits), len(stored))
		}
	}

	for i := range threshold - 1 {
		put(i)
	}
	check("below threshold", false)
	// Crossing the threshold starts the build; these writes land while it
	// runs (or just after), and must all reach the graph.
	for i := threshold - 1; i < 700; i++ {
		put(i)
		if i%3 == 0 {
			remove(i - 100)
		}
		if i%5 == 0 {
			put(i - 200) // replace or re-add
		}
	}
	check("after switch", true)

	// Tombstones outnumbering live nodes trigger a rebuild; live stays
	// above threshold/2 so it remains a graph.
	for i := 700; i < 1200; i++ {
		put(i)
	}
	for i := range 800 {
		remove(i)
	}
	check("after rebuild", true)
	if g := a.current().(*HNSW); g.Tombstones() > g.Len() {
		t.Fatalf("rebuild left %d tombstones for %d live", g.Tombstones(), g.Len())
	}

	for i := 800; i < 1200-threshold/2+1; i++ {
		remove(i)
	}
	check("below half the threshold", false)
}
