package discover

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"
)

// TestUsageTextScoresAsBleve checks the flat BM25 of the usage model
// against a bleve index holding the same documents (as the usage model
// once was): every match query's best documents get bleve's scores, in
// bleve's order (ties by id), on both fields.
func TestUsageTextScoresAsBleve(t *testing.T) {
	e, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	r := rand.New(rand.NewPCG(3, 5))
	// A vocabulary with a few very common words, as requests have, and
	// a long tail; some words repeat within a text.
	vocab := []string{"please", "file", "files", "list", "read", "weather", "forecast", "city", "convert", "currency",
		"send", "email", "message", "translate", "text", "calendar", "meeting", "schedule", "search", "web", "stock",
		"price", "recipe", "movie", "flight", "hotel", "book", "music", "play", "song", "image", "resize", "photo"}
	word := func() string {
		if r.IntN(3) == 0 {
			return vocab[r.IntN(3)]
		}
		return vocab[r.IntN(len(vocab))]
	}
	sentence := func() string {
		ws := make([]string, 1+r.IntN(7))
		for i := range ws {
			ws[i] = word()
		}
		return strings.Join(ws, " ")
	}
	var intents []LearnedIntent
	texts := map[string][]string{}
	for i := range 600 {
		in := LearnedIntent{Tool: fmt.Sprintf("srv/tool_%d", r.IntN(40)), Text: sentence()}
		if i%50 == 0 {
			// One tool's intents repeat a word hundreds of times together.
			in = LearnedIntent{Tool: "srv/heavy", Text: "files files files files files"}
		}
		intents = append(intents, in)
		texts[in.Tool] = append(texts[in.Tool], in.Text)
	}
	flat := newUsageText(e.text, texts, intents)
	ref := bleveUsageIndex(t, texts, intents)
	defer ref.Close()

	fields := map[int]string{usageFieldTools: "usage", usageFieldIntents: "intent"}
	for q := range 200 {
		text := sentence()
		if q%20 == 0 {
			text += " unseenword"
		}
		for f, name := range fields {
			n := 1 + r.IntN(15)
			want, wantBest := bleveSearch(t, ref, name, text, n)
			got, gotBest := flat.search(f, terms(e.text, text), n)
			if len(got) != len(want) || math.Abs(gotBest-wantBest) > 1e-9 {
				t.Fatalf("%s %q n=%d: %d hits, best %v; bleve %d, best %v", name, text, n, len(got), gotBest, len(want), wantBest)
			}
			for i := range want {
				if got[i].id != want[i].id || math.Abs(got[i].score-want[i].score) > 1e-9 {
					t.Fatalf("%s %q n=%d: hit %d is %s %v, bleve's %s %v", name, text, n, i, got[i].id, got[i].score, want[i].id, want[i].score)
				}
			}
		}
	}
}

// bleveUsageIndex indexes texts and intents as the usage model's bleve
// index did: one document per tool ("t"+tool, field usage) and per intent
// ("i"+position, field intent), BM25.
func bleveUsageIndex(t *testing.T, texts map[string][]string, intents []LearnedIntent) bleve.Index {
	t.Helper()
	im := bleve.NewIndexMapping()
	im.ScoringModel = index.BM25Scoring
	if err := addAnalyzers(im); err != nil {
		t.Fatal(err)
	}
	im.DefaultAnalyzer = textAnalyzer
	im.StoreDynamic, im.IndexDynamic, im.DocValuesDynamic = false, false, false
	dm := bleve.NewDocumentStaticMapping()
	fm := bleve.NewTextFieldMapping()
	fm.Analyzer = textAnalyzer
	fm.Store, fm.IncludeTermVectors, fm.IncludeInAll, fm.DocValues = false, false, false, false
	dm.AddFieldMappingsAt("usage", fm)
	dm.AddFieldMappingsAt("intent", fm)
	im.DefaultMapping = dm
	idx, err := bleve.NewUsing("", im, scorch.Name, scorch.Name, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := idx.NewBatch()
	for tool, ts := range texts {
		if err := b.Index("t"+tool, map[string]any{"usage": strings.Join(ts, "\n")}); err != nil {
			t.Fatal(err)
		}
	}
	for i, in := range intents {
		if err := b.Index("i"+strconv.Itoa(i), map[string]any{"intent": in.Text}); err != nil {
			t.Fatal(err)
		}
	}
	if err := idx.Batch(b); err != nil {
		t.Fatal(err)
	}
	return idx
}

// bleveSearch is bleve's match query on one field: the n best, ties by id,
// scores rounded as the usage model rounds them.
func bleveSearch(t *testing.T, idx bleve.Index, field, text string, n int) ([]textHit, float64) {
	t.Helper()
	q := bleve.NewMatchQuery(text)
	q.SetField(field)
	req := bleve.NewSearchRequestOptions(q, n, 0, false)
	req.SortBy([]string{"-_score", "_id"})
	res, err := idx.SearchInContext(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var out []textHit
	for _, h := range res.Hits {
		out = append(out, textHit{id: h.ID, score: math.Round(h.Score*1e9) / 1e9})
	}
	// bleve sorted by its unrounded scores: equal after rounding go by id.
	slices.SortStableFunc(out, byTextRank)
	return out, math.Round(res.MaxScore*1e9) / 1e9
}
