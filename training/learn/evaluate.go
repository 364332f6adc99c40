package learn

import (
	"context"
	"fmt"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/training/labels"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/route"
)

// Metrics are discovery's figures on labelled examples, as `toolyard eval
// discovery` computes them.
type Metrics struct {
	N                  int     `json:"n"`
	HitAt1             float64 `json:"hit_at_1"`
	RecallAt5          float64 `json:"recall_at_5"`
	ECE                float64 `json:"ece"`
	Activated          float64 `json:"activated"` // share of the examples
	ActivatedPrecision float64 `json:"activated_precision"`
}

// Map is the metrics by name (for manifests and guards).
func (m Metrics) Map() map[string]float64 {
	return map[string]float64{"n": float64(m.N), "hit_at_1": m.HitAt1, "recall_at_5": m.RecallAt5, "ece": m.ECE,
		"activated": m.Activated, "activated_precision": m.ActivatedPrecision}
}

// Evaluate ranks every example's intent on the engine as it stands (with
// whatever usage model is in force) and scores the ranking against the
// example's tool, at the default routing thresholds.
func Evaluate(ctx context.Context, e *discover.Engine, es []labels.Example, progress func(done, total int)) (Metrics, error) {
	qs := make([]eval.Query, len(es))
	for i, ex := range es {
		qs[i] = eval.Query{ID: fmt.Sprint(i), Query: ex.Text, GoldToolIDs: []string{ex.Tool}}
	}
	rep, err := eval.Discovery(ctx, e, qs, 10, route.DefaultThresholds(), nil, progress)
	if err != nil {
		return Metrics{}, err
	}
	return FromReport(rep), nil
}

// FromReport takes the metrics out of an eval report.
func FromReport(r eval.Report) Metrics {
	m := Metrics{N: r.Ranked, HitAt1: r.HitAt1, RecallAt5: r.RecallAt5, ECE: r.ECE, ActivatedPrecision: r.ActivatedPrecision}
	if r.Queries > 0 {
		m.Activated = float64(r.Tiers[schemas.TierActivated]) / float64(r.Queries)
	}
	return m
}
