package discover

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// TestTopTextIsBleveTop checks that the postings' proposals, scored by
// bleve, are exactly the n best hits (ids, scores, order) of a bleve search
// of the whole index: plain and weighted queries, with filters, after
// updates and removals that leave stale postings behind, after a
// compaction, and with many tools tied at the cut.
func TestTopTextIsBleveTop(t *testing.T) {
	tools := syntheticTools(3100)
	// Copies under other servers tie with their originals at every score.
	for i := range 60 {
		m := tools[i%3]
		m.ID = fmt.Sprintf("mirror%d/%s", i, m.ID[strings.IndexByte(m.ID, '/')+1:])
		tools = append(tools, m)
	}
	e, err := New(tools[:3000], WithCompactAfter(1000))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	queries := syntheticQueries(30)
	// A query of the mirrored tools' own words makes the tie reach the cut.
	queries = append(queries, tools[0].Description, tools[1].Name+" "+tools[2].Description)

	check := func(t *testing.T, stage string) {
		for i, text := range queries {
			for _, f := range []Filter{{}, {Scope: []string{"mirror3", "mirror4", tools[7].ID}}, {Types: []string{"tool"}}} {
				for _, n := range []int{1, 10, 50} {
					name := fmt.Sprintf("%s/q%d/scope%d/n%d", stage, i, len(f.Scope), n)
					e.mu.RLock()
					q := e.parse(text)
					ts := e.searchTerms(q)
					allow := e.admit(f)
					cls := e.textClauses(ts)
					got, err := e.topText(context.Background(), cls, allow, n)
					if err != nil {
						e.mu.RUnlock()
						t.Fatal(err)
					}
					want, err := e.retrieve(context.Background(), disjunction(cls), nil, allow, n)
					if err != nil {
						e.mu.RUnlock()
						t.Fatal(err)
					}
					if !slices.Equal(got, want) {
						e.mu.RUnlock()
						t.Fatalf("%s: postings-proposed top differs from bleve's:\n got %v\nwant %v", name, got, want)
					}
					e.mu.RUnlock()
				}
			}
		}
	}
	check(t, "built")
	for _, m := range tools[3000:] {
		if err := e.Put(m); err != nil {
			t.Fatal(err)
		}
	}
	for i := 10; i < 400; i += 13 {
		if err := e.Remove(tools[i].ID); err != nil {
			t.Fatal(err)
		}
	}
	changed := tools[20]
	changed.Description = "Completely different words: harvest pumpkins from the garden"
	if err := e.Put(changed); err != nil {
		t.Fatal(err)
	}
	if e.post.nums[changed.ID] < 3000 {
		t.Fatal("a replaced tool kept its document number: the stale postings are not exercised")
	}
	check(t, "updated")
	e.compactNow()
	if len(e.post.docs) != len(e.tools) {
		t.Fatalf("after compaction the postings hold %d documents for %d tools", len(e.post.docs), len(e.tools))
	}
	check(t, "compacted")
}

// TestPostingsScoreAsBleve checks the postings' own arithmetic against
// bleve's scores, tool by tool, so that the band at the cut stays a
// safety margin rather than a correction.
func TestPostingsScoreAsBleve(t *testing.T) {
	e, err := New(syntheticTools(2000))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	e.mu.RLock()
	defer e.mu.RUnlock()
	compared := 0
	for _, text := range syntheticQueries(20) {
		cls := e.textClauses(e.searchTerms(e.parse(text)))
		if len(cls) == 0 {
			continue
		}
		want, err := e.retrieve(ctx, disjunction(cls), nil, nil, len(e.tools))
		if err != nil {
			t.Fatal(err)
		}
		a := e.post.accumulator()
		e.post.accumulate(a, cls, e.stats)
		for _, h := range want {
			d := e.post.nums[h.id]
			got := a.cells[d].score(1 / float64(len(cls)))
			if math.Abs(got-h.score) > 1e-9*math.Max(1, h.score) {
				t.Fatalf("%q, tool %s: postings score %.12g, bleve %.12g", text, h.id, got, h.score)
			}
			compared++
		}
		a.reset()
		e.post.scratch.Put(a)
	}
	if compared < 1000 {
		t.Fatalf("only %d scores compared", compared)
	}
}

// TestCompactCounted checks the term frequencies kept for the postings.
func TestCompactCounted(t *testing.T) {
	ts := []string{"b", "a", "b", "c", "b"}
	for range 300 {
		ts = append(ts, "z")
	}
	terms, counts := compactCounted(ts)
	if !slices.Equal(terms, []string{"a", "b", "c", "z"}) || !slices.Equal(counts, []uint8{1, 3, 1, 255}) {
		t.Fatalf("got %v %v", terms, counts)
	}
	e := newFixture(t)
	en := e.tools["maps/google_maps_scraper"]
	for f := range indexedFields {
		var sum uint32
		for _, c := range en.fieldTF(f) {
			sum += uint32(c)
		}
		if len(en.fieldTF(f)) != len(en.fieldTerms[f]) || sum != en.fieldLen[f] {
			t.Fatalf("field %s: %d frequencies summing to %d for %d terms of length %d",
				indexedFields[f], len(en.fieldTF(f)), sum, len(en.fieldTerms[f]), en.fieldLen[f])
		}
	}
}

// scoreText takes its BM25 from the postings while the index is as built:
// they must equal bleve's own scores (rounded alike) for every tool, and
// after updates, until compaction, and for a tool whose term frequency
// saturates the postings' count, bleve scores.
func TestScoreTextFromPostingsEqualsBleve(t *testing.T) {
	ctx := context.Background()
	texts := []string{
		"open an issue about the crash", "run a sql query on the sales database", "translate this into French",
		"how much disk space do my files take", "send an email to the team about the outage", "list running processes by memory",
	}
	// scores are bleve's and scoreText's scores of text over every tool,
	// and the postings' over every tool whose counts they keep whole.
	scores := func(e *Engine, text string) (fromBleve, fromPostings, fromScoreText map[string]float64) {
		e.mu.RLock()
		defer e.mu.RUnlock()
		q := e.parse(text)
		ts := e.searchTerms(q)
		cls := e.textClauses(ts)
		ids := slices.Sorted(maps.Keys(e.tools))
		hits, _, err := e.searchIndex(ctx, idsQuery{text: disjunction(cls), ids: ids}, len(ids))
		if err != nil {
			t.Fatal(err)
		}
		fromBleve = map[string]float64{}
		for _, h := range hits {
			fromBleve[h.id] = h.score
		}
		if fromScoreText, err = e.scoreText(ctx, cls, ids); err != nil {
			t.Fatal(err)
		}
		// The postings score the tools whose counts they keep whole, and
		// refuse a list with a saturated one.
		whole := slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return e.tools[id].tfSaturated })
		if _, ok := e.post.scores(cls, e.stats, ids); ok != (len(whole) == len(ids)) {
			t.Fatalf("%q: the postings scored a saturated tool (ok %v)", text, ok)
		}
		fromPostings, _ = e.post.scores(cls, e.stats, whole)
		return fromBleve, fromPostings, fromScoreText
	}
	e := newFixture(t)
	for _, text := range texts {
		b, p, st := scores(e, text)
		if len(b) == 0 {
			t.Fatalf("%q matched nothing: the test text is stale", text)
		}
		if !maps.Equal(b, p) || !maps.Equal(b, st) {
			t.Fatalf("%q: bleve %v\npostings %v\nscoreText %v", text, b, p, st)
		}
	}
	// After updates scoreText is bleve's, whatever the postings say.
	if err := e.Remove("weather/getForecast"); err != nil {
		t.Fatal(err)
	}
	if err := e.Put(schemas.Manifest{ID: "spam/echo", Name: "echo", Description: strings.Repeat("echo ", 300) + "back what it is given"}); err != nil {
		t.Fatal(err)
	}
	for _, text := range append(texts, "echo this back") {
		b, _, st := scores(e, text)
		if !maps.Equal(b, st) {
			t.Fatalf("after updates, %q: bleve %v\nscoreText %v", text, b, st)
		}
	}
	// Compacted, the postings score again, but not a saturated tool's query.
	e.compactNow()
	if !e.tools["spam/echo"].tfSaturated {
		t.Fatal("300 echoes did not saturate the postings' count")
	}
	for _, text := range texts {
		b, p, st := scores(e, text)
		if !maps.Equal(b, p) || !maps.Equal(b, st) {
			t.Fatalf("compacted, %q: bleve %v\npostings %v\nscoreText %v", text, b, p, st)
		}
	}
	if b, _, st := scores(e, "echo this back"); !maps.Equal(b, st) {
		t.Fatalf("saturated: bleve %v\nscoreText %v", b, st)
	}
}
