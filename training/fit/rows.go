package fit

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/workers/discover"
)

// Row is one query's top candidate: every signal by name (plus the
// extras below), whether the query needs a tool and whether the top
// candidate is a right one.
type Row struct {
	// Set names the query file the row comes from (metatool, awareness,
	// sealtools): figures are reported per set.
	Set   string             `json:"set"`
	X     map[string]float64 `json:"x"`
	Right bool               `json:"right"`
	Need  bool               `json:"need"`
}

// Extras are features of the top candidate computed from the whole
// candidate list, tried by experiments and not shipped (so not signals):
// margins of coverage and tool coverage over the best of the others, and
// the fused margin as a share of the fused score.
var Extras = []string{"coverage_margin", "tool_coverage_margin", "margin_ratio"}

// poolSize is how many candidates are explained per query: the hybrid pool
// discovery ranks the top of.
const poolSize = 10

// Collect explains every query with e (a hybrid engine over the set's
// tools) and returns its rows, in query order, labelled set.
func Collect(ctx context.Context, e *discover.Engine, set string, qs []eval.Query) ([]Row, error) {
	rows := make([]Row, len(qs))
	errs := make([]error, len(qs))
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(qs); i += workers {
				rows[i], errs[i] = row(ctx, e, set, qs[i])
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s query %s: %w", set, qs[i].ID, err)
		}
	}
	return rows, nil
}

func row(ctx context.Context, e *discover.Engine, set string, q eval.Query) (Row, error) {
	cs, err := e.Explain(ctx, q.Query, poolSize)
	if err != nil {
		return Row{}, err
	}
	need := q.NeedsTool == nil || *q.NeedsTool
	r := Row{Set: set, X: map[string]float64{}, Need: need}
	for _, f := range append(discover.FeatureNames(), Extras...) {
		r.X[f] = 0 // a query without candidates has no evidence at all
	}
	if len(cs) == 0 {
		return r, nil
	}
	for f, v := range cs[0].Signals {
		r.X[f] = v
	}
	for f, v := range extras(cs) {
		r.X[f] = v
	}
	r.Right = need && slices.Contains(q.GoldToolIDs, cs[0].ToolID)
	return r, nil
}

func extras(cs []discover.Explained) map[string]float64 {
	top := cs[0].Signals
	var cov2, tool2 float64
	for _, c := range cs[1:] {
		cov2 = max(cov2, c.Signals[discover.FeatureCoverage])
		tool2 = max(tool2, c.Signals[discover.FeatureToolCoverage])
	}
	out := map[string]float64{
		"coverage_margin":      top[discover.FeatureCoverage] - cov2,
		"tool_coverage_margin": top[discover.FeatureToolCoverage] - tool2,
		"margin_ratio":         0,
	}
	if f := top[discover.FeatureFused]; f > 0 && len(cs) > 1 {
		out["margin_ratio"] = top[discover.FeatureMargin] / f
	}
	return out
}
