package embed

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/training/eval/evaltest"
)

// needLocal returns the local embedder over the compiled-in vectors; it
// fails without them in CI and skips elsewhere. (Other conversions and
// settings are measured by 'toolyard eval embedder'.)
func needLocal(t testing.TB, opts ...LocalOption) *Local {
	t.Helper()
	l, err := NewLocal(opts...)
	if errors.Is(err, ErrUnavailable) {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return l
}

type benchQuery = eval.Query

// The benchmarks, read with the project's loaders.
var (
	needBench   = evaltest.Path
	loadTools   = evaltest.Tools
	loadQueries = evaltest.Queries
)

// benchSet is one data set's tools and dev queries.
type benchSet struct {
	name    string
	tools   []schemas.Manifest
	queries []benchQuery
}

func loadSet(t testing.TB, name string) benchSet {
	t.Helper()
	return benchSet{
		name:    name,
		tools:   loadTools(t, needBench(t, name, "tools.jsonl")),
		queries: loadQueries(t, needBench(t, name, "queries.dev.jsonl")),
	}
}

// scores are retrieval metrics as the bench README defines them.
type scores struct {
	hit1, r5, r10 float64
}

func (s scores) String() string {
	return fmt.Sprintf("hit@1 %.3f  recall@5 %.3f  recall@10 %.3f", s.hit1, s.r5, s.r10)
}

// evaluate ranks every tool by exact cosine against each query.
func evaluate(t testing.TB, e Embedder, set benchSet, text func(schemas.Manifest) string) scores {
	t.Helper()
	ctx := context.Background()
	texts := make([]string, len(set.tools))
	for i, m := range set.tools {
		texts[i] = text(m)
	}
	tv, err := e.EmbedDocuments(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	qs := make([]string, len(set.queries))
	for i, q := range set.queries {
		qs[i] = q.Query
	}
	qv, err := e.EmbedDocuments(ctx, qs)
	if err != nil {
		t.Fatal(err)
	}
	var s scores
	ranked := make([]int, len(tv))
	sims := make([]float32, len(tv))
	for qi, q := range set.queries {
		for i, v := range tv {
			sims[i] = dot(qv[qi], v)
			ranked[i] = i
		}
		sort.SliceStable(ranked, func(a, b int) bool { return sims[ranked[a]] > sims[ranked[b]] })
		gold := map[string]bool{}
		for _, g := range q.GoldToolIDs {
			gold[g] = true
		}
		if gold[set.tools[ranked[0]].ID] {
			s.hit1++
		}
		s.r5 += recall(set.tools, ranked[:5], gold)
		s.r10 += recall(set.tools, ranked[:10], gold)
	}
	n := float64(len(set.queries))
	return scores{s.hit1 / n, s.r5 / n, s.r10 / n}
}

func recall(tools []schemas.Manifest, top []int, gold map[string]bool) float64 {
	found := 0
	for _, i := range top {
		if gold[tools[i].ID] {
			found++
		}
	}
	return float64(found) / float64(len(gold))
}

func dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
