package discover

import (
	"context"
	"errors"
	"fmt"
)

// ErrEmbedderFailed is returned, under Strict, by a search whose intent
// could not be embedded.
var ErrEmbedderFailed = errors.New("embedder failed")

type strictKey struct{}

// Strict marks ctx so that a search fails with ErrEmbedderFailed instead of
// quietly going keyword-only when the embedder fails. Session seeding uses
// it: an agent is better shown no tools (and the meta-tools to find some)
// than tools chosen by half the evidence.
func Strict(ctx context.Context) context.Context {
	return context.WithValue(ctx, strictKey{}, true)
}

func isStrict(ctx context.Context) bool {
	v, _ := ctx.Value(strictKey{}).(bool)
	return v
}

// strictCheck fails a Strict search of an engine whose embedder was
// configured but failed when the tools were embedded (so it runs
// keyword-only): its answers lack the vector evidence too.
func (e *Engine) strictCheck(ctx context.Context) error {
	if isStrict(ctx) && e.cfg.embedder != nil && e.vec == nil {
		return fmt.Errorf("%w: tool vectors unavailable since the index was built", ErrEmbedderFailed)
	}
	return nil
}
