package discover

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/training/eval/evaltest"
)

type benchQuery = eval.Query

// The benchmarks, read with the project's loaders.
var (
	needBench   = evaltest.Path
	loadTools   = evaltest.Tools
	loadQueries = evaltest.Queries
)

func benchEngine(t testing.TB, set string) *Engine {
	t.Helper()
	tools := loadTools(t, needBench(t, set, "tools.jsonl"))
	e, err := New(tools)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// tierBounds are routing's default tiers, in order, with their lower bounds.
var tierBounds = []struct {
	name string
	min  float64
}{{"activated", 0.85}, {"multiple", 0.5}, {"weak", 0.3}, {"not_found", 0}}

func tierOf(c float64) int {
	for i, b := range tierBounds {
		if c >= b.min {
			return i
		}
	}
	return len(tierBounds) - 1
}

// retrievalReport is what one query set measures.
type retrievalReport struct {
	n              int
	hit1, recall5  float64
	tierN, tierHit [4]int
}

func (r retrievalReport) log(t testing.TB, name string) {
	t.Logf("%s: %d queries  hit@1 %.3f  recall@5 %.3f", name, r.n, r.hit1, r.recall5)
	for i, b := range tierBounds {
		prec := 0.0
		if r.tierN[i] > 0 {
			prec = float64(r.tierHit[i]) / float64(r.tierN[i])
		}
		t.Logf("  %-9s share %.3f  top-1 correct %.3f  (%d queries)", b.name, float64(r.tierN[i])/float64(r.n), prec, r.tierN[i])
	}
}

// evaluate runs every query, spread over the cores.
func evaluate(t testing.TB, e *Engine, qs []benchQuery) retrievalReport {
	t.Helper()
	type outcome struct {
		top     bool
		conf    float64
		recall5 float64
	}
	outs := make([]outcome, len(qs))
	errs := make(chan error, len(qs))
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(qs); i += workers {
				q := qs[i]
				cs, err := e.Search(context.Background(), q.Query, 10, nil)
				if err != nil {
					errs <- fmt.Errorf("query %s: %w", q.ID, err)
					return
				}
				var o outcome
				if len(cs) > 0 {
					o.conf, o.top = cs[0].Confidence, slices.Contains(q.GoldToolIDs, cs[0].ToolID)
				}
				found := 0
				for _, c := range cs[:min(5, len(cs))] {
					if slices.Contains(q.GoldToolIDs, c.ToolID) {
						found++
					}
				}
				if len(q.GoldToolIDs) > 0 {
					o.recall5 = float64(found) / float64(len(q.GoldToolIDs))
				}
				outs[i] = o
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	r := retrievalReport{n: len(qs)}
	for _, o := range outs {
		tier := tierOf(o.conf)
		r.tierN[tier]++
		if o.top {
			r.hit1++
			r.tierHit[tier]++
		}
		r.recall5 += o.recall5
	}
	r.hit1 /= float64(r.n)
	r.recall5 /= float64(r.n)
	return r
}

// activatedPrecision is the share of activated queries whose top tool is right.
func (r retrievalReport) activatedPrecision() (share, precision float64) {
	if r.tierN[0] == 0 {
		return 0, 0
	}
	return float64(r.tierN[0]) / float64(r.n), float64(r.tierHit[0]) / float64(r.tierN[0])
}

// checkFloors fails the test when retrieval falls below the plain BM25
// baselines of the benchmark README, or the activated tier is wrong more
// than 1 time in 10 (or empty, which would make that check vacuous).
func checkFloors(t *testing.T, r retrievalReport, hit1, recall5 float64) {
	t.Helper()
	if r.hit1 < hit1 || r.recall5 < recall5 {
		t.Errorf("hit@1 %.3f, recall@5 %.3f; plain BM25 gets %.3f, %.3f", r.hit1, r.recall5, hit1, recall5)
	}
	share, prec := r.activatedPrecision()
	if share < 0.02 || prec < 0.9 {
		t.Errorf("activated tier: %.3f of queries, %.3f right; want some, at least 0.9 right", share, prec)
	}
}

// The figures these tests log are the ones reported for the engine; run
// them with: go test ./workers/discover/ -run Bench -v
func TestBenchMetatool(t *testing.T) {
	e := benchEngine(t, "metatool")
	t.Run("queries", func(t *testing.T) {
		qs := loadQueries(t, needBench(t, "metatool", "queries.dev.jsonl"))
		r := evaluate(t, e, qs)
		r.log(t, "metatool/queries.dev")
		checkFloors(t, r, 0.374, 0.545)
	})
	t.Run("awareness", func(t *testing.T) {
		qs := loadQueries(t, needBench(t, "metatool", "awareness.dev.jsonl"))
		var none, need []benchQuery
		for _, q := range qs {
			if q.NeedsTool != nil && !*q.NeedsTool {
				none = append(none, q)
			} else {
				need = append(need, q)
			}
		}
		if len(none) == 0 {
			t.Fatal("no needs_tool=false queries in awareness.dev")
		}
		r := evaluate(t, e, none)
		below := func(n int) float64 { return float64(n) / float64(r.n) }
		t.Logf("awareness needs_tool=false: %d queries; top confidence < 0.5: %.3f, < 0.3: %.3f, activated: %.3f",
			r.n, below(r.tierN[2]+r.tierN[3]), below(r.tierN[3]), below(r.tierN[0]))
		if b := below(r.tierN[2] + r.tierN[3]); b < 0.8 {
			t.Errorf("only %.3f of queries needing no tool fall below 0.5; want most (>= 0.8)", b)
		}
		evaluate(t, e, need).log(t, "awareness needs_tool=true")
	})
}

func TestBenchSealtools(t *testing.T) {
	e := benchEngine(t, "sealtools")
	qs := loadQueries(t, needBench(t, "sealtools", "queries.dev.jsonl"))
	r := evaluate(t, e, qs)
	r.log(t, "sealtools/queries.dev")
	checkFloors(t, r, 0.861, 0.832)
}
