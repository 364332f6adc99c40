package discover

import (
	"context"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// Soft coverage credits a paraphrase the keyword side cannot see, and
// never less than exact coverage.
func TestSoftCoverage(t *testing.T) {
	emb := needVectors(t)
	tools := []schemas.Manifest{
		{ID: "weather", Name: "weather", Description: "Current temperature and rain for a city."},
		{ID: "guitar", Name: "guitar", Description: "Tune a guitar string by ear."},
	}
	e, err := New(tools, WithEmbedder(emb))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.soft == nil {
		t.Fatal("no word table with the local embedder")
	}
	ps := e.explainPool(t, "will it be hot tomorrow, what is the forecast")
	got := map[string]*pooled{}
	for _, p := range ps {
		got[p.en.cand.ToolID] = p
		if p.soft < p.coverage {
			t.Errorf("%s: soft coverage %.3f < coverage %.3f", p.en.cand.ToolID, p.soft, p.coverage)
		}
	}
	w, g := got["weather"], got["guitar"]
	if w == nil || g == nil {
		t.Fatalf("pool %v", ps)
	}
	if w.soft <= g.soft || w.soft == 0 {
		t.Errorf("soft coverage weather %.3f, guitar %.3f; want weather higher", w.soft, g.soft)
	}
	cs, err := e.Search(context.Background(), "will it be hot tomorrow, what is the forecast", 1, nil)
	if err != nil || len(cs) != 1 || cs[0].ToolID != "weather" {
		t.Errorf("top = %v, %v; want weather", cs, err)
	}

	// Keyword-only engines have no word table and are unchanged.
	k, err := New(tools)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if k.soft != nil {
		t.Error("keyword-only engine has a word table")
	}
}
