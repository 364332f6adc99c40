package prefetch

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/workers/predict"
	"github.com/toolyard/toolyard/workers/route"
)

// Engine is what the prefetch simulation needs of a discovery
// engine (discover.Engine).
type Engine interface {
	Discover(ctx context.Context, in schemas.Intent) (schemas.Candidates, error)
	RegistryVersion() string
	UsageVersion() string
}

// Config configures the streaming simulation.
type Config struct {
	// TokensPerSecond is how fast the simulated agent writes.
	TokensPerSecond float64
	// Concurrency is how many agents stream at once.
	Concurrency int
	Thresholds  route.Thresholds
	Predictor   []predict.Option
	// Lead is what the agent writes before the marker.
	Lead string
	Rule predict.Rule
	// Vectorizer is the match rule's (local) embedding.
	Vectorizer predict.Vectorizer
	Progress   func(done, total int)
}

// Report sums up a simulation. Times run from the closing "]" to
// the candidates being ready; "with" is the predictor and prefetch in
// front of discovery, "without" a search of the whole intent at "]".
type Report struct {
	Intents         int     `json:"intents"`
	TokensPerSecond float64 `json:"tokens_per_second"`
	// Predictions made, and the prefetch searches they cost per intent.
	Predictions       int     `json:"predictions"`
	SearchesPerIntent float64 `json:"searches_per_intent"`
	Hits              int     `json:"hits"`
	// HitsWaited are hits whose prefetch was still running at "]".
	HitsWaited   int     `json:"hits_waited"`
	WrongHits    int     `json:"wrong_hits"`
	HitRate      float64 `json:"hit_rate"`
	WrongHitRate float64 `json:"wrong_hit_rate"`
	// Over every intent.
	P50WithMS    float64 `json:"p50_with_ms"`
	P50WithoutMS float64 `json:"p50_without_ms"`
	P99WithMS    float64 `json:"p99_with_ms"`
	P99WithoutMS float64 `json:"p99_without_ms"`
	// Over the hits only: the prefetch's time and the fresh search's.
	P50HitsWithMS    float64 `json:"p50_hits_with_ms"`
	P50HitsWithoutMS float64 `json:"p50_hits_without_ms"`
	// MissCostP99MS is what a miss adds: the lookup (the match rule).
	MissCostP99MS float64 `json:"miss_cost_p99_ms"`
}

type prefetchOutcome struct {
	predictions   int
	hit, waited   bool
	wrong         bool
	with, without time.Duration
	lookup        time.Duration
}

// Simulate streams "<lead>[TOOL: <query>]" for every query, token by token
// at the configured rate, through a predictor that prefetches its
// predictions' searches on e, and measures when each intent's candidates
// are ready with and without the prefetch. Every hit is checked against a
// fresh search of the real intent (Judge).
func Simulate(ctx context.Context, e Engine, qs []eval.Query, cfg Config) (Report, error) {
	if cfg.TokensPerSecond <= 0 {
		return Report{}, fmt.Errorf("prefetch: tokens per second must be positive, got %v", cfg.TokensPerSecond)
	}
	if cfg.Vectorizer == nil {
		return Report{}, fmt.Errorf("prefetch: no vectorizer for the match rule")
	}
	outs := make([]prefetchOutcome, len(qs))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, cfg.Concurrency))
	var mu sync.Mutex
	done := 0
	for i, q := range qs {
		g.Go(func() error {
			o, err := simulateStream(gctx, e, q, cfg)
			if err != nil {
				return fmt.Errorf("query %s: %w", q.ID, err)
			}
			outs[i] = o
			if cfg.Progress != nil {
				mu.Lock()
				done++
				if done%100 == 0 || done == len(qs) {
					cfg.Progress(done, len(qs))
				}
				mu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return Report{}, err
	}
	return summarize(outs, cfg.TokensPerSecond), nil
}

func summarize(outs []prefetchOutcome, tps float64) Report {
	r := Report{Intents: len(outs), TokensPerSecond: tps}
	var with, without, hw, hwo, miss []float64
	for _, o := range outs {
		r.Predictions += o.predictions
		with = append(with, ms(o.with))
		without = append(without, ms(o.without))
		if o.hit {
			r.Hits++
			hw, hwo = append(hw, ms(o.with)), append(hwo, ms(o.without))
			if o.waited {
				r.HitsWaited++
			}
			if o.wrong {
				r.WrongHits++
			}
		} else {
			miss = append(miss, ms(o.lookup))
		}
	}
	for _, s := range [][]float64{with, without, hw, hwo, miss} {
		slices.Sort(s)
	}
	if n := len(outs); n > 0 {
		r.HitRate = float64(r.Hits) / float64(n)
		r.SearchesPerIntent = float64(r.Predictions) / float64(n)
	}
	if r.Hits > 0 {
		r.WrongHitRate = float64(r.WrongHits) / float64(r.Hits)
	}
	r.P50WithMS, r.P99WithMS = eval.Percentile(with, 0.5), eval.Percentile(with, 0.99)
	r.P50WithoutMS, r.P99WithoutMS = eval.Percentile(without, 0.5), eval.Percentile(without, 0.99)
	r.P50HitsWithMS, r.P50HitsWithoutMS = eval.Percentile(hw, 0.5), eval.Percentile(hwo, 0.5)
	r.MissCostP99MS = eval.Percentile(miss, 0.99)
	return r
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// inflight is one prefetch search.
type inflight struct {
	entry predict.Entry
	done  chan struct{}
	cands []schemas.Candidate
	err   error
}

// simulateStream is one agent writing one intent.
func simulateStream(ctx context.Context, e Engine, q eval.Query, cfg Config) (prefetchOutcome, error) {
	var o prefetchOutcome
	real := strings.Join(strings.Fields(q.Query), " ")
	toks := predict.Tokens(cfg.Lead + "[TOOL: " + real + "]")
	interval := time.Duration(float64(time.Second) / cfg.TokensPerSecond)
	p := predict.New(cfg.Predictor...)
	session := "eval-" + q.ID
	reg, model := e.RegistryVersion(), e.UsageVersion()
	var (
		mu      sync.Mutex
		flights []*inflight
		wg      sync.WaitGroup
	)
	defer wg.Wait()
	start := time.Now()
	for i, tok := range toks {
		if err := sleepUntil(ctx, start.Add(time.Duration(i)*interval)); err != nil {
			return o, err
		}
		preds, err := p.Feed(time.Now(), schemas.StreamChunk{SessionID: session, MessageID: "m", Seq: uint64(i), Delta: tok})
		if err != nil {
			return o, err
		}
		for _, pr := range preds {
			sum, words := predict.Sum(pr.Text)
			f := &inflight{done: make(chan struct{}), entry: predict.Entry{MessageID: pr.MessageID, Marker: pr.Marker,
				TextSum: sum, Words: words, Source: pr.Source, Confidence: pr.Confidence, Registry: reg, Model: model}}
			mu.Lock()
			flights = append(flights, f)
			mu.Unlock()
			o.predictions++
			// The search goroutine owns cands and err until done is closed;
			// the entry itself is only read here, as the lookup at "]" sees it.
			intent := schemas.Intent{ID: fmt.Sprintf("%s-p%d", session, o.predictions), SessionID: session, Text: pr.Text}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer close(f.done)
				c, err := e.Discover(ctx, intent)
				f.cands, f.err = c.Candidates, err
			}()
		}
	}
	closed := time.Now()
	// Without prefetch: the search of the whole intent, started at "]".
	type freshResult struct {
		cands []schemas.Candidate
		took  time.Duration
		err   error
	}
	freshc := make(chan freshResult, 1)
	go func() {
		c, err := e.Discover(ctx, schemas.Intent{ID: session + "-real", SessionID: session, Text: real})
		freshc <- freshResult{c.Candidates, time.Since(closed), err}
	}()
	// With prefetch: the lookup, then the matching prefetch's candidates
	// (waiting for them if its search is still running).
	mu.Lock()
	entries := make([]predict.Entry, len(flights))
	for i, f := range flights {
		entries[i] = f.entry
	}
	mu.Unlock()
	lookStart := time.Now()
	k, _ := predict.Match(real, entries, reg, model, cfg.Vectorizer, cfg.Rule)
	o.lookup = time.Since(lookStart)
	var hit *inflight
	if k >= 0 {
		hit = flights[k]
		select {
		case <-hit.done:
		default:
			o.waited = true
			<-hit.done
		}
		o.with = time.Since(closed)
	}
	fresh := <-freshc
	if fresh.err != nil {
		return o, fresh.err
	}
	o.without = fresh.took
	if hit != nil && hit.err == nil {
		o.hit = true
		o.wrong = predict.Judge(hit.cands, fresh.cands, cfg.Thresholds)
	} else {
		// A miss (or a failed prefetch) costs the lookup, then the search.
		o.with = o.lookup + fresh.took
		if hit != nil {
			o.with = time.Since(closed)
		}
	}
	return o, nil
}

func sleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
