package synth

import (
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestToolsAreValidDistinctAndReproducible(t *testing.T) {
	a, b := Tools(5000, 1), Tools(5000, 1)
	seen := map[string]bool{}
	for i, m := range a {
		if m.ID != b[i].ID || m.Description != b[i].Description {
			t.Fatalf("tool %d differs between runs", i)
		}
		if seen[m.ID] {
			t.Fatalf("duplicate id %s", m.ID)
		}
		seen[m.ID] = true
		if err := schemas.ValidateValue(schemas.KindManifest, m); err != nil {
			t.Fatalf("%s: %v", m.ID, err)
		}
	}
	if qs := Queries(a, 10, 2); len(qs) != 10 || qs[0] == "" {
		t.Fatalf("queries: %v", qs)
	}
}
