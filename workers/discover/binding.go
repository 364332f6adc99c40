package discover

import (
	"context"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// Prefetched answers intents from searches made ahead of them, while the
// agent was still writing (workers/predict).
type Prefetched interface {
	// Lookup returns the candidates of a prefetched search that may answer
	// the intent: one made against this registry and model version.
	Lookup(ctx context.Context, in schemas.Intent, registry, model string) ([]schemas.Candidate, bool)
	// Verify is told, after the answer went out, what a fresh search of
	// the intent ranked and how long it and the lookup took.
	Verify(in schemas.Intent, prefetched, fresh []schemas.Candidate, freshTook, lookupTook time.Duration)
}

type stageConfig struct {
	prefetched Prefetched
	checks     chan struct{}
	hints      func(text string) *schemas.Hint
}

// StageOption configures the discover stage.
type StageOption func(*stageConfig)

// WithPrefetched makes the stage answer from prefetched searches when one
// matches; each such answer is checked by a fresh search in the background
// (at most checks at once; past that a hit goes unchecked).
func WithPrefetched(p Prefetched, checks int) StageOption {
	return func(c *stageConfig) { c.prefetched, c.checks = p, make(chan struct{}, max(1, checks)) }
}

// WithHints gives each intent the learned shortcut of its phrasing, if the
// model in force has one (workers/shortcut); it rides on the intent to the
// result. hints is called once per intent and must be cheap.
func WithHints(hints func(text string) *schemas.Hint) StageOption {
	return func(c *stageConfig) { c.hints = hints }
}

// Stage binds the engine to intents: pipe.discover.<session> in, ranked
// candidates to routing out.
func Stage(e *Engine, opts ...StageOption) pipeline.Stage {
	var cfg stageConfig
	for _, o := range opts {
		o(&cfg)
	}
	return pipeline.Stage{
		Name:     bind.StageDiscover,
		Stream:   pipeline.StreamPipe,
		Subjects: []string{bind.PipeFilter(bind.StageDiscover)},
		Reject:   bind.Rejecter(bind.StageDiscover),
		// It runs no tool: a stage of the same process may hand it work directly.
		Chainable: true,
		Handler: func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
			in, err := bind.Input[schemas.Intent](schemas.KindIntent, m)
			if err != nil {
				return nil, pipeline.Permanent(err)
			}
			if cfg.hints != nil && in.Hint == nil {
				in.Hint = cfg.hints(in.Text)
			}
			start := time.Now()
			cands, decision, err := cfg.discover(ctx, e, in)
			if err != nil {
				return nil, err
			}
			next := bind.Next(bind.StageRoute, in.SessionID, in.ID, cands)
			audit := bind.WithCandidates(bind.IntentAudit(bind.StageDiscover, in), cands.Candidates)
			audit.Decision, audit.Result, audit.DurationMS = "candidates", decision, bind.Millis(time.Since(start))
			return []pipeline.Out{next, bind.Audit(audit)}, nil
		},
	}
}

// discover answers from a matching prefetched search when there is one
// ("prefetched"), and searches otherwise ("discovered").
func (c stageConfig) discover(ctx context.Context, e *Engine, in schemas.Intent) (schemas.Candidates, string, error) {
	if c.prefetched != nil && len(in.Scope) == 0 {
		start := time.Now()
		if cs, ok := c.prefetched.Lookup(ctx, in, e.RegistryVersion(), e.UsageVersion()); ok {
			took := time.Since(start)
			select {
			case c.checks <- struct{}{}:
				go func() {
					defer func() { <-c.checks }()
					cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
					defer cancel()
					fs := time.Now()
					if fresh, err := e.Discover(cctx, in); err == nil {
						c.prefetched.Verify(in, cs, fresh.Candidates, time.Since(fs), took)
					}
				}()
			default:
			}
			return schemas.Candidates{V: schemas.Version, Intent: in, Candidates: cs}, "prefetched", nil
		}
	}
	cands, err := e.Discover(ctx, in)
	return cands, "discovered", err
}
