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

// Tool coverage asks how much of what a tool does is what was asked: a
// tool sharing one common word with a request ("price") is barely covered,
// one whose words the request names or paraphrases is well covered. With
// the local vectors paraphrases count; with another embedder (no word
// table) only exact matches do, and never above the soft figure.
func TestToolCoverage(t *testing.T) {
	tools := []schemas.Manifest{
		{ID: "petrol", Name: "petrol_prices", Description: "Average daily petrol price for any state or capital city region in Australia."},
		{ID: "finance", Name: "finance", Description: "Latest financial updates and analysis of stocks and cryptocurrencies."},
		{ID: "weather", Name: "weather", Description: "Current temperature and rain for a city."},
	}
	cases := []struct {
		query string
		// hi should be covered more than lo.
		hi, lo string
	}{
		{"latest analysis of bitcoin and shares, and their price", "finance", "petrol"},
		{"average petrol price in Sydney, Australia", "petrol", "finance"},
		{"will it rain in the city tomorrow, what temperature", "weather", "petrol"},
	}
	emb := needVectors(t)
	soft, err := New(tools, WithEmbedder(emb))
	if err != nil {
		t.Fatal(err)
	}
	defer soft.Close()
	exact, err := New(tools, WithEmbedder(&fakeEmbedder{}))
	if err != nil {
		t.Fatal(err)
	}
	defer exact.Close()
	if exact.soft != nil {
		t.Fatal("fake embedder engine has a word table")
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			cov := func(e *Engine) map[string]float64 {
				out := map[string]float64{}
				for _, p := range e.explainPool(t, c.query) {
					if p.toolCov < 0 || p.toolCov > 1 {
						t.Errorf("%s: tool coverage %.3f outside [0,1]", p.en.cand.ToolID, p.toolCov)
					}
					out[p.en.cand.ToolID] = p.toolCov
				}
				return out
			}
			s, x := cov(soft), cov(exact)
			if s[c.hi] <= s[c.lo] {
				t.Errorf("soft tool coverage %s %.3f, %s %.3f; want %s higher", c.hi, s[c.hi], c.lo, s[c.lo], c.hi)
			}
			for id, v := range x {
				if v > s[id]+1e-9 {
					t.Errorf("%s: exact tool coverage %.3f above soft %.3f", id, v, s[id])
				}
			}
		})
	}
}
