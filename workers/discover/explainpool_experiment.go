//go:build experiment

package discover

import "context"

// ExplainPool is Explain of every pooled candidate of a search for the
// engine's top k, which each side proposes its best (WithCandidatePool)
// for: the whole pool a search ranks, best first, for training/learn's
// experiments (not in normal builds). Re-weighting the usage signals
// reorders this pool and no other; Explain with k 50 cuts it to its best
// by the registry's own evidence first.
func (e *Engine) ExplainPool(ctx context.Context, text string) ([]Explained, error) {
	return e.explain(ctx, text, e.cfg.topK, -1)
}
