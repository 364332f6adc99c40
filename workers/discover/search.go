package discover

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/toolyard/toolyard/schemas"
)

// minPool is how many hits are fetched whatever k is: a candidate's
// confidence depends on how clearly it beats its competitors, so they must
// be seen even when only the best is wanted.
const minPool = competitors

// Discover proposes tools for an intent: its text is the query, its scope
// the scope, and the engine's top-K the number of candidates.
func (e *Engine) Discover(ctx context.Context, in schemas.Intent) (schemas.Candidates, error) {
	cs, err := e.search(ctx, in.Text, e.cfg.topK, Filter{Scope: in.Scope})
	if err != nil {
		return schemas.Candidates{}, fmt.Errorf("discover: intent %s (%q): %w", in.ID, clipUTF8(in.Text, 80), err)
	}
	return schemas.Candidates{V: schemas.Version, Intent: in, Candidates: cs}, nil
}

// Search returns up to k tools for a plain-language query, most confident
// first, each with its retrieval score and a confidence in [0,1]. k <= 0
// means the configured top-K. A non-empty scope admits only tools whose id
// or server it lists. Any text is a valid query; text that matches no tool
// yields no candidates (an empty, non-nil list).
func (e *Engine) Search(ctx context.Context, text string, k int, scope []string) ([]schemas.Candidate, error) {
	return e.SearchFilter(ctx, text, k, Filter{Scope: scope})
}

// SearchFilter is Search with every filter: scope, item type and permissions.
func (e *Engine) SearchFilter(ctx context.Context, text string, k int, f Filter) ([]schemas.Candidate, error) {
	cs, err := e.search(ctx, text, k, f)
	if err != nil {
		return nil, fmt.Errorf("discover: search %q: %w", clipUTF8(text, 80), err)
	}
	return cs, nil
}

// keywordSearch is the keyword engine on its own, with the keyword
// confidence heuristic. Caller holds the read lock.
func (e *Engine) keywordSearch(ctx context.Context, q parsedQuery, k int, allow func(*entry) bool) ([]schemas.Candidate, error) {
	ts := e.searchTerms(q)
	if len(ts) == 0 {
		return []schemas.Candidate{}, nil
	}
	cls := e.textClauses(ts)
	hits, err := e.topText(ctx, cls, allow, max(k, minPool))
	if err != nil {
		return nil, err
	}
	mentioned := e.mentions(q.words, allow)
	if missing := absent(mentioned, hits); len(missing) > 0 {
		scores, err := e.scoreText(ctx, cls, missing)
		if err != nil {
			return nil, err
		}
		hits = append(hits, bestText(missing, scores, len(missing))...)
	}
	if len(hits) == 0 {
		return []schemas.Candidate{}, nil
	}
	ranked := e.rank(q, hits, mentioned)
	if len(ranked) > k {
		ranked = ranked[:k]
	}
	return ranked, nil
}

// hit is one tool bleve found, with its BM25 score.
type hit struct {
	id    string
	score float64
}

// topText returns the n best allowed tools for the text clauses by BM25,
// ties broken by id. The postings propose the candidates and bleve scores
// them, so the scores are bleve's and the ranking is the one a bleve
// search of the whole index gives. Caller holds the read lock.
func (e *Engine) topText(ctx context.Context, cls []clause, allow func(*entry) bool, n int) ([]hit, error) {
	ids := e.post.candidates(cls, e.stats, n, allow)
	scores, err := e.scoreText(ctx, cls, ids)
	if err != nil {
		return nil, err
	}
	return bestText(ids, scores, n), nil
}

// scoreText is the BM25 score, by bleve, of each listed tool that matches
// the clauses. Caller holds the read lock.
func (e *Engine) scoreText(ctx context.Context, cls []clause, ids []string) (map[string]float64, error) {
	if len(ids) == 0 || len(cls) == 0 {
		return nil, nil
	}
	// The postings hold bleve's BM25 arithmetic (postings.go), a few times
	// cheaper than a bleve search; what differs in the last bits the
	// rounding both apply makes equal (on the MetaTool and Seal-Tools dev
	// queries, 1.6M scores compared equal). They score only while the
	// index is as built: after updates, bleve's statistics count removed
	// tools until compaction, so bleve scores until then. A tool whose term
	// frequency saturated the postings' count is scored by bleve too.
	if e.post != nil && e.comp.pending == 0 {
		if scores, ok := e.post.scores(cls, e.stats, ids); ok {
			return scores, nil
		}
	}
	// Sorted and unique, so that bleve sees the same request for the
	// same query every time.
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	hits, _, err := e.searchIndex(ctx, idsQuery{text: disjunction(cls), ids: ids}, len(ids))
	if err != nil {
		return nil, err
	}
	scores := make(map[string]float64, len(hits))
	for _, h := range hits {
		scores[h.id] = h.score
	}
	return scores, nil
}

// bestText is the n best of the candidates by score, ties broken by id;
// candidates without a score did not match.
func bestText(candidates []string, scores map[string]float64, n int) []hit {
	hits := make([]hit, 0, len(candidates))
	for _, id := range candidates {
		if s, ok := scores[id]; ok {
			hits = append(hits, hit{id: id, score: s})
		}
	}
	slices.SortFunc(hits, byScoreThenID)
	return hits[:min(n, len(hits))]
}

func byScoreThenID(a, b hit) int {
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	return strings.Compare(a.id, b.id)
}

// searchIndex runs one bleve search; complete reports that every matching
// tool was returned.
func (e *Engine) searchIndex(ctx context.Context, q query.Query, size int) (hits []hit, complete bool, err error) {
	req := bleve.NewSearchRequestOptions(q, size, 0, false)
	res, err := e.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, false, fmt.Errorf("search index of %d tools: %w", len(e.tools), err)
	}
	hits = make([]hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		if _, ok := e.tools[h.ID]; ok {
			// bleve adds up a tool's clause scores in an order that depends
			// on its internal document numbers, so two builds of the same
			// registry differ in the last bits; rounding makes equal equal.
			hits = append(hits, hit{id: h.ID, score: math.Round(h.Score*1e9) / 1e9})
		}
	}
	return hits, res.Total <= uint64(len(res.Hits)), nil
}

// absent lists, sorted, the mentioned tools bleve did not return.
func absent(mentioned map[string]float64, hits []hit) []string {
	var out []string
	for id := range mentioned {
		if !slices.ContainsFunc(hits, func(h hit) bool { return h.id == id }) {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}
