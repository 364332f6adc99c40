//go:build experiment

package discover

import (
	"context"

	"github.com/toolyard/toolyard/schemas"
)

// ExplainPool is Explain of every pooled candidate of a search for the
// engine's top k, which each side proposes its best (WithCandidatePool)
// for: the whole pool a search ranks, best first, for training/learn's
// experiments (not in normal builds). Re-weighting the usage signals
// reorders this pool and no other; Explain with k 50 cuts it to its best
// by the registry's own evidence first.
func (e *Engine) ExplainPool(ctx context.Context, text string) ([]Explained, error) {
	return e.explain(ctx, text, e.cfg.topK, -1)
}

// SearchVectorsOf is Search of text with every vector of the request
// embedded from vecText instead (training/prefetch's experiments: what
// answering from a prefix's vectors, with the whole intent's words,
// changes).
func (e *Engine) SearchVectorsOf(ctx context.Context, text, vecText string, k int) ([]schemas.Candidate, error) {
	return e.searchVectorsOf(ctx, text, vecText, k, Filter{})
}
