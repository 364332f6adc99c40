package predict

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/models/bundle"
)

// StageName is the predict stage: agent.stream.> in, prefetched searches
// into the prefetch bucket out. It sends nothing down the pipeline: the
// output on agent.output is what runs, with or without it. It is not a
// work-queue stage: see Run.
const StageName = "predict"

// agentAll is every subject of the AGENT stream (pipeline.DefaultTopology).
const agentAll = "agent.>"

// Searcher is what the stage searches with: the discovery engine the
// discover stage uses (same registry and model, or its entries never match).
type Searcher interface {
	Discover(ctx context.Context, in schemas.Intent) (schemas.Candidates, error)
	RegistryVersion() string
	UsageVersion() string
}

// Model is a model version's part the predictor reads.
type Model struct {
	Version   string
	Templates *bundle.Templates
	Phrasings map[string]string
}

type stageConfig struct {
	log       *slog.Logger
	searches  int
	predictor []Option
	ttl       time.Duration
	model     func() *Model
	// fromSeq, when set, is where in the stream to start instead of its
	// end (the benchmark reads a stored backlog).
	fromSeq uint64
}

// StageOption configures the stage.
type StageOption func(*stageConfig)

// WithStageLogger sets the stage's logger.
func WithStageLogger(l *slog.Logger) StageOption { return func(c *stageConfig) { c.log = l } }

// WithSearches bounds the prefetch searches running at once in this
// process (default 16); a prediction past it is dropped, counted.
func WithSearches(n int) StageOption { return func(c *stageConfig) { c.searches = max(1, n) } }

// WithPredictor passes options to the predictor.
func WithPredictor(opts ...Option) StageOption {
	return func(c *stageConfig) { c.predictor = append(c.predictor, opts...) }
}

// WithModel gives the model version in force, asked for on every chunk
// (cheap: a pointer), so a new version's templates apply at once.
func WithModel(f func() *Model) StageOption { return func(c *stageConfig) { c.model = f } }

// WithBucketTTL sets the prefetch bucket's TTL when the stage creates it.
func WithBucketTTL(d time.Duration) StageOption { return func(c *stageConfig) { c.ttl = d } }

// Run follows agent.stream.> from its end until ctx ends, feeding every
// chunk to one predictor, and prefetches what it predicts.
//
// Every predict worker follows every chunk, in stream order, with a
// consumer of its own: feeding a chunk costs microseconds, and a predictor
// needs all of a session's chunks, which a shared work-queue consumer
// would spread over the workers. The searches are what costs, and each
// prediction's is run once: by the worker that claims it first in the
// prefetch bucket (Store.Claim). A worker that dies leaves the others
// predicting the same streams; a search it claimed and never finished is
// waited for at most --prefetch-wait, then the intent is searched afresh.
func Run(ctx context.Context, js jetstream.JetStream, s Searcher, opts ...StageOption) error {
	cfg := stageConfig{log: slog.Default(), searches: 16}
	for _, o := range opts {
		o(&cfg)
	}
	store, err := OpenStore(ctx, js, cfg.ttl)
	if err != nil {
		return err
	}
	// The default match rule wants the intent's exact words, which a word
	// prefix never has: its searches would be spent for nothing.
	b := &binding{cfg: cfg, s: s, store: store, p: New(append([]Option{WithWordPrefixes(false)}, cfg.predictor...)...), sem: make(chan struct{}, cfg.searches)}
	// The consumer takes the whole AGENT stream and skips what is not a
	// chunk here: with a filter narrower than the stream's subjects the
	// server matches it against the subjects of the stored blocks for
	// every message it delivers, which with one subject per session cost
	// more than everything else together (BenchmarkStage, 1000 sessions:
	// 15k chunks/s filtered, 54k unfiltered). The rest of the stream (whole outputs,
	// session ends) is a few messages per output.
	var cons jetstream.Consumer
	if cfg.fromSeq > 0 {
		cons, err = js.OrderedConsumer(ctx, pipeline.StreamAgent, jetstream.OrderedConsumerConfig{FilterSubjects: []string{agentAll},
			DeliverPolicy: jetstream.DeliverByStartSequencePolicy, OptStartSeq: cfg.fromSeq})
	} else {
		cons, err = pipeline.FollowFromEnd(ctx, js, pipeline.StreamAgent, agentAll)
	}
	if err != nil {
		return fmt.Errorf("predict: follow %s: %w", agentAll, err)
	}
	sweep := time.NewTicker(time.Minute)
	defer sweep.Stop()
	msgs, err := cons.Messages()
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	defer msgs.Stop()
	go func() { <-ctx.Done(); msgs.Stop() }()
	cfg.log.Info("predict: following agent streams", "subject", schemas.AgentStreamPrefix+">")
	for {
		m, err := msgs.Next()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("predict: %w", err)
		}
		select {
		case now := <-sweep.C:
			b.p.Sweep(now)
			Sessions.Set(float64(b.p.Sessions()))
		default:
		}
		if !strings.HasPrefix(m.Subject(), schemas.AgentStreamPrefix) {
			b.end(m.Subject(), m.Data())
			continue
		}
		err = b.feed(m.Subject(), m.Data())
		Chunks.Inc()
		if err != nil {
			// A bad chunk is the publisher's problem; the stream goes on.
			Dropped.WithLabelValues("invalid").Inc()
			cfg.log.Debug("predict: chunk dropped", "subject", m.Subject(), "err", err)
		}
	}
}

type binding struct {
	cfg   stageConfig
	s     Searcher
	store *Store
	sem   chan struct{}
	p     *Predictor
	model string
	stats FeedStats
}

// end tells the predictor what the rest of the stream ends: a whole output
// its message (agent.output.<session>), an agent.end.<session> the session.
// Anything else, or what does not parse, is left alone: the parse and
// session stages answer bad input; the session expires in time anyway.
func (b *binding) end(subject string, data []byte) {
	session, err := bind.SubjectSession(subject)
	if err != nil {
		return
	}
	switch {
	case strings.HasPrefix(subject, schemas.AgentEndPrefix):
		b.p.End(session)
		Sessions.Set(float64(b.p.Sessions()))
	case strings.HasPrefix(subject, schemas.AgentOutputPrefix):
		var out struct {
			MessageID string `json:"message_id"`
		}
		if json.Unmarshal(data, &out) == nil {
			b.p.Finish(session, out.MessageID)
		}
	}
}

// feed gives one chunk to the predictor and prefetches its predictions.
func (b *binding) feed(subject string, data []byte) error {
	session, err := bind.SubjectSession(subject)
	if err != nil {
		return err
	}
	var c schemas.StreamChunk
	if err := json.Unmarshal(data, &c); err != nil {
		return fmt.Errorf("predict: chunk on %s: %w", subject, err)
	}
	if c.SessionID != session {
		return fmt.Errorf("predict: chunk of session %q published on %s", c.SessionID, subject)
	}
	if b.cfg.model != nil {
		if md := b.cfg.model(); md != nil && md.Version != b.model {
			b.p.SetTemplates(md.Templates, md.Phrasings)
			b.model = md.Version
		}
	}
	preds, err := b.p.Feed(time.Now(), c)
	if err != nil {
		return err
	}
	Sessions.Set(float64(b.p.Sessions()))
	// Counted only when they moved: a labelled counter's lookup hashes
	// its labels, and this runs for every chunk.
	if st := b.p.Stats(); st.Duplicates != b.stats.Duplicates || st.Stale != b.stats.Stale {
		droppedDuplicate.Add(float64(st.Duplicates - b.stats.Duplicates))
		droppedStale.Add(float64(st.Stale - b.stats.Stale))
		b.stats = st
	}
	for _, pr := range preds {
		b.prefetch(pr)
	}
	return nil
}

// prefetch runs a prediction's search in the background: a pending entry
// first, so a lookup that comes before the search ends can wait for it,
// then the candidates.
func (b *binding) prefetch(pr Prediction) {
	select {
	case b.sem <- struct{}{}:
	default:
		Dropped.WithLabelValues("busy").Inc()
		return
	}
	go func() {
		defer func() { <-b.sem }()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		sum, words := Sum(pr.Text)
		e := Entry{MessageID: pr.MessageID, Marker: pr.Marker, TextSum: sum, Words: words, Source: pr.Source, Confidence: pr.Confidence,
			Registry: b.s.RegistryVersion(), Model: b.s.UsageVersion(), At: time.Now(), Pending: true}
		claimed, err := b.store.Claim(ctx, pr.SessionID, e)
		if err != nil {
			b.cfg.log.Warn("prefetch: entry not stored", "session", pr.SessionID, "err", err)
			return
		}
		if !claimed {
			return // another worker searches it
		}
		Predictions.WithLabelValues(pr.Source).Inc()
		cands, err := b.s.Discover(ctx, schemas.Intent{ID: "prefetch-" + pr.MessageID, SessionID: pr.SessionID, Text: pr.Text})
		if err != nil {
			b.cfg.log.Warn("prefetch: search failed", "session", pr.SessionID, "err", err)
			return // the pending entry times out in the lookup: a miss
		}
		e.Candidates, e.Pending, e.At = cands.Candidates, false, time.Now()
		if err := b.store.Add(ctx, pr.SessionID, e); err != nil {
			b.cfg.log.Warn("prefetch: entry not stored", "session", pr.SessionID, "err", err)
		}
	}()
}
