package discover

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2"
)

// TestIDsQueryScoresAsFilter checks that scoring a list of tools with
// idsQuery gives exactly the hits, and scores, of the text query filtered
// to those tools the way bleve does it, and of the unrestricted query.
func TestIDsQueryScoresAsFilter(t *testing.T) {
	tools := syntheticTools(3020)
	e, err := New(tools[:3000])
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	// Updates add segments: ids must be found across them.
	for _, m := range tools[3000:] {
		if err := e.Put(m); err != nil {
			t.Fatal(err)
		}
	}
	all := make([]string, 0, len(e.tools))
	for id := range e.tools {
		all = append(all, id)
	}
	slices.Sort(all)
	ctx := context.Background()
	for i, text := range syntheticQueries(40) {
		for _, stride := range []int{1, 7, 61, 997} {
			t.Run(fmt.Sprintf("q%d/stride%d", i, stride), func(t *testing.T) {
				ts := e.searchTerms(e.parse(text))
				if len(ts) == 0 {
					t.Skip("query has no known terms")
				}
				tq := e.textQuery(ts)
				var ids []string
				for j := i % stride; j < len(all); j += stride {
					ids = append(ids, all[j])
				}
				want, err := e.retrieve(ctx, tq, bleve.NewDocIDQuery(ids), nil, len(ids))
				if err != nil {
					t.Fatal(err)
				}
				got, err := e.retrieve(ctx, idsQuery{text: tq, ids: ids}, nil, nil, len(ids))
				if err != nil {
					t.Fatal(err)
				}
				if len(want) == 0 && stride == 1 {
					t.Fatalf("query %q matched nothing: the test checks nothing", text)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("idsQuery hits differ from the filtered query's:\n got %v\nwant %v", got[:min(5, len(got))], want[:min(5, len(want))])
				}
				whole, err := e.retrieve(ctx, tq, nil, nil, len(all))
				if err != nil {
					t.Fatal(err)
				}
				for _, h := range got {
					k := slices.IndexFunc(whole, func(w hit) bool { return w.id == h.id })
					if k < 0 || whole[k].score != h.score {
						t.Fatalf("tool %s: score %v restricted, unrestricted %v", h.id, h.score, whole[max(k, 0)])
					}
				}
			})
		}
	}
}
