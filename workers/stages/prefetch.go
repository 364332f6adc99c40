package stages

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/predict"
)

// PrefetchConfig turns on the predictor and its prefetch.
type PrefetchConfig struct {
	// Rule is the match rule (predict.DefaultRule when zero).
	Rule *predict.Rule
	// Wait is how long a lookup waits for a matching search still running
	// (default 2s): never longer than the search itself would take.
	Wait time.Duration
	// TTL is the prefetch bucket's (predict.DefaultTTL when 0).
	TTL time.Duration
	// Predictor are the predictor's options.
	Predictor []predict.Option
}

// prefetchLookup is the discover stage's view of the prefetch bucket: a
// miss until the bucket is open.
type prefetchLookup struct {
	l atomic.Pointer[predict.Lookup]
}

func (p *prefetchLookup) Lookup(ctx context.Context, in schemas.Intent, registry, model string) ([]schemas.Candidate, bool) {
	if l := p.l.Load(); l != nil {
		return l.Lookup(ctx, in, registry, model)
	}
	return nil, false
}

func (p *prefetchLookup) Verify(in schemas.Intent, prefetched, fresh []schemas.Candidate, freshTook, lookupTook time.Duration) {
	if l := p.l.Load(); l != nil {
		l.Verify(in, prefetched, fresh, freshTook, lookupTook)
	}
}

// discoverStage is the discover stage, answering from the prefetch bucket
// when prefetch is on.
func (s *Set) discoverStage() pipeline.Stage {
	pc := s.cfg.Prefetch
	hints := discover.WithHints(s.Hint)
	if pc == nil {
		return discover.Stage(s.engine, hints)
	}
	st := discover.Stage(s.engine, hints, discover.WithPrefetched(&s.lookup, 4))
	st.Setup = func(ctx context.Context, js jetstream.JetStream) error {
		store, err := predict.OpenStore(ctx, js, pc.TTL)
		if err != nil {
			return err
		}
		rule := predict.DefaultRule()
		if pc.Rule != nil {
			rule = *pc.Rule
		}
		wait := pc.Wait
		if wait == 0 {
			wait = 2 * time.Second
		}
		s.lookup.l.Store(predict.NewLookup(store, localVectorizer(s), rule, s.thresholds.Load, wait, s.cfg.Log))
		return nil
	}
	return st
}

// Hint is the learned shortcut of an intent text in the model version in
// force, nil when it has none (workers/shortcut).
func (s *Set) Hint(text string) *schemas.Hint { return s.shortcuts.Load().Hint(text) }

// RunPredict runs the predict stage over the set's engine until ctx ends
// (predict.Run): it is not a work-queue stage, so not in Stage.
func (s *Set) RunPredict(ctx context.Context, js jetstream.JetStream) error {
	pc := s.cfg.Prefetch
	if pc == nil {
		return fmt.Errorf("stage %s: prefetch is off in this process", predict.StageName)
	}
	return predict.Run(ctx, js, engineOf{s}, predict.WithStageLogger(s.cfg.Log), predict.WithBucketTTL(pc.TTL),
		predict.WithPredictor(pc.Predictor...), predict.WithModel(s.predictModel.Load))
}

// engineOf searches with the set's engine in force (rebuilt once when the
// registry loads).
type engineOf struct{ s *Set }

func (e engineOf) Discover(ctx context.Context, in schemas.Intent) (schemas.Candidates, error) {
	return e.s.engine.Discover(ctx, in)
}
func (e engineOf) RegistryVersion() string { return e.s.engine.RegistryVersion() }
func (e engineOf) UsageVersion() string    { return e.s.engine.UsageVersion() }

// localVectorizer embeds for the match rule with the local word vectors;
// without them only exact texts match.
func localVectorizer(s *Set) predict.Vectorizer {
	l, err := embed.NewLocal()
	if err != nil {
		s.cfg.Log.Warn("prefetch: no local vectors for the match rule: only exact texts match", "err", err)
		return func(string) []float32 { return nil }
	}
	return func(text string) []float32 {
		v, err := l.EmbedQuery(context.Background(), text)
		if err != nil {
			return nil
		}
		return v
	}
}
