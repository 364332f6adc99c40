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
	// Effects are the kinds of effect the tool names (read, create,
	// update, delete: action.go), for action_conflict's reasons.
	Effects []string `json:"effects,omitempty"`
}

// Explain ranks text like a hybrid search (the usage model in force
// included) and returns the best k candidates with their signals. It needs
// the engine's vectors: a keyword-only engine has no pooled evidence to
// explain and returns nil.
func (e *Engine) Explain(ctx context.Context, text string, k int) ([]Explained, error) {
	if k <= 0 {
		k = e.cfg.topK
	}
	return e.explain(ctx, text, k, k)
}

// explain ranks as a search for the best k and returns the best cut
// candidates (all of the pool when cut < 0).
func (e *Engine) explain(ctx context.Context, text string, k, cut int) ([]Explained, error) {
	out, _, _, err := e.explainWith(ctx, text, k, cut)
	return out, err
}

// explainWith is explain, the confidence model that gave the confidences,
// and the kinds of effect the request asks for.
func (e *Engine) explainWith(ctx context.Context, text string, k, cut int) ([]Explained, Calibration, actionKind, error) {
	q := e.parse(text)
	qv, qe, mode, err := e.embedQuery(ctx, q, text)
	if err != nil || mode == ModeKeyword {
		return nil, Calibration{}, 0, err
	}
	um := e.usage.Load()
	uq, err := e.usageQuery(ctx, um, text, qv, qe)
	if err != nil {
		return nil, Calibration{}, 0, err
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	q = e.withCompounds(q)
	order, err := e.pooledRanking(ctx, q, vectorsOf{qv, qe, uq}, k, mode, e.admit(Filter{}), um)
	if err != nil || len(order) == 0 {
		return nil, Calibration{}, 0, err
	}
	calib := e.calibrationFor(um, order)
	calib.confidences(order)
	xs := poolFeatures(order)
	if cut >= 0 {
		order = order[:min(cut, len(order))]
	}
	out := make([]Explained, len(order))
	names := FeatureNames()
	for i, p := range order {
		m := make(map[string]float64, len(names))
		for j, n := range names {
			m[n] = xs[i][j]
		}
		out[i] = Explained{ToolID: p.en.cand.ToolID, Confidence: p.conf, Signals: m, Effects: p.en.actions.Names()}
	}
	asked := q.asked
	if len(order) > 0 {
		asked = order[0].asked // what the request asks of the top tool
	}
	return slices.Clip(out), calib.doc, asked, nil
}
