package discover

import (
	"context"
	"slices"
)

// Explained is one candidate of a search with the value of every signal
// (signals.go), for training jobs and eval reports that fit or show them.
type Explained struct {
	ToolID     string
	Confidence float64
	// Signals holds every signal's value, by name.
	Signals map[string]float64
}

// Explain ranks text like a hybrid search (the usage model in force
// included) and returns the best k candidates with their signals. It needs
// the engine's vectors: a keyword-only engine has no pooled evidence to
// explain and returns nil.
func (e *Engine) Explain(ctx context.Context, text string, k int) ([]Explained, error) {
	if k <= 0 {
		k = e.cfg.topK
	}
	q := e.parse(text)
	qv, qe, mode, err := e.embedQuery(ctx, q, text)
	if err != nil || mode == ModeKeyword {
		return nil, err
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	um := e.usage.Load()
	order, err := e.pooledRanking(ctx, q, qv, qe, k, mode, e.admit(Filter{}), um)
	if err != nil || len(order) == 0 {
		return nil, err
	}
	e.calibrationFor(um, order).confidences(order)
	xs := poolFeatures(order)
	order = order[:min(k, len(order))]
	out := make([]Explained, len(order))
	names := FeatureNames()
	for i, p := range order {
		m := make(map[string]float64, len(names))
		for j, n := range names {
			m[n] = xs[i][j]
		}
		out[i] = Explained{ToolID: p.en.cand.ToolID, Confidence: p.conf, Signals: m}
	}
	return slices.Clip(out), nil
}
