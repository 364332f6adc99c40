package discover

import (
	"context"
	"slices"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
)

// The searches here ask bleve for the best tools of the whole index, the
// way the engine did before its postings proposed them: the references
// the tests hold the engine's answers to.

// textQuery matches any term in any text field that has it, each field
// with its boost. Caller holds the read lock.
func (e *Engine) textQuery(ts []string) query.Query {
	return disjunction(e.textClauses(ts))
}

func filtered(q, filter query.Query) query.Query {
	if filter == nil {
		return q
	}
	b := bleve.NewBooleanQuery()
	b.AddMust(q)
	b.AddFilter(filter)
	return b
}

// tieSlack is how many hits beyond those wanted a search first fetches, so
// that ties at the cut can be seen and are mostly settled in one search
// (registries list the same tool under several servers, and those tie).
const tieSlack = 20

// retrieve returns the n best hits by BM25 score, ties broken by id, the
// same for every build of the same registry. bleve orders equal scores by
// internal document number, which follows the order its analysis
// goroutines happened to finish; so when a tie straddles the cut, the
// search is repeated with a larger size until the whole tie is seen.
//
// allow drops tools after the index has scored them (filters the index
// cannot express); the search grows until n allowed hits are seen.
func (e *Engine) retrieve(ctx context.Context, q, filter query.Query, allow func(*entry) bool, n int) ([]hit, error) {
	q = filtered(q, filter)
	for size := n + tieSlack; ; size *= 4 {
		hits, complete, err := e.searchIndex(ctx, q, size)
		if err != nil {
			return nil, err
		}
		if allow != nil {
			hits = slices.DeleteFunc(hits, func(h hit) bool { return !allow(e.tools[h.id]) })
		}
		slices.SortFunc(hits, byScoreThenID)
		if complete || (len(hits) > n && hits[n-1].score != hits[len(hits)-1].score) {
			return hits[:min(n, len(hits))], nil
		}
	}
}
