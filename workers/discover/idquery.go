package discover

import (
	"context"
	"fmt"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"
)

// idsQuery scores only the listed tools against a text query, each exactly
// as the text query alone would. Fusion needs the BM25 score of the few
// tools only the vectors proposed; bleve's own way, a boolean query with a
// doc-id filter, walks every tool the text query matches and tests each
// against the filter, which at 100k tools costs as much as the search
// itself. This searcher leapfrogs instead: it jumps the text query's
// postings straight to each listed tool, so the cost follows the number
// of ids, not the registry.
type idsQuery struct {
	text searchable
	ids  []string
}

// searchable is what idsQuery needs of a bleve query.
type searchable interface {
	Searcher(ctx context.Context, i index.IndexReader, m mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error)
}

func (q idsQuery) Searcher(ctx context.Context, i index.IndexReader, m mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	text, err := q.text.Searcher(ctx, i, m, options)
	if err != nil {
		return nil, fmt.Errorf("text searcher: %w", err)
	}
	// The ids only select: no score of theirs may reach the text score,
	// and their weight must not enter the query norm.
	ids, err := searcher.NewDocIDSearcher(ctx, i, q.ids, 0, search.SearcherOptions{Score: "none"})
	if err != nil {
		_ = text.Close()
		return nil, fmt.Errorf("id searcher for %d tools: %w", len(q.ids), err)
	}
	return &idsSearcher{text: text, ids: ids}, nil
}

// idsSearcher yields the text searcher's matches among the ids searcher's
// documents, with the text searcher's scores.
type idsSearcher struct {
	text, ids search.Searcher
}

func (s *idsSearcher) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	d, err := s.ids.Next(ctx)
	if err != nil {
		return nil, err
	}
	return s.meet(ctx, d)
}

func (s *idsSearcher) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	d, err := s.ids.Advance(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.meet(ctx, d)
}

// meet leapfrogs from the listed document d to the first document both
// searchers have, returning the text searcher's match for it.
func (s *idsSearcher) meet(ctx *search.SearchContext, d *search.DocumentMatch) (*search.DocumentMatch, error) {
	for d != nil {
		m, err := s.text.Advance(ctx, d.IndexInternalID)
		if err != nil || m == nil {
			ctx.DocumentMatchPool.Put(d)
			return nil, err
		}
		if m.IndexInternalID.Equals(d.IndexInternalID) {
			ctx.DocumentMatchPool.Put(d)
			return m, nil
		}
		// The text query skipped past d: jump the ids to where it landed.
		ctx.DocumentMatchPool.Put(d)
		if d, err = s.ids.Advance(ctx, m.IndexInternalID); err != nil {
			ctx.DocumentMatchPool.Put(m)
			return nil, err
		}
		if d != nil && d.IndexInternalID.Equals(m.IndexInternalID) {
			ctx.DocumentMatchPool.Put(d)
			return m, nil
		}
		ctx.DocumentMatchPool.Put(m)
	}
	return nil, nil
}

func (s *idsSearcher) Close() error {
	err := s.text.Close()
	if cerr := s.ids.Close(); err == nil {
		err = cerr
	}
	return err
}

func (s *idsSearcher) Weight() float64 { return s.text.Weight() }

func (s *idsSearcher) SetQueryNorm(n float64) { s.text.SetQueryNorm(n) }

func (s *idsSearcher) Count() uint64 { return min(s.text.Count(), s.ids.Count()) }

func (s *idsSearcher) Min() int { return 0 }

func (s *idsSearcher) Size() int { return s.text.Size() + s.ids.Size() }

func (s *idsSearcher) DocumentMatchPoolSize() int {
	return s.text.DocumentMatchPoolSize() + s.ids.DocumentMatchPoolSize() + 1
}
