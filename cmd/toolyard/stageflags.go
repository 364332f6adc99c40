package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/toolyard/toolyard/ops/sample"
	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/models"
	"github.com/toolyard/toolyard/workers/predict"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/route"
	"github.com/toolyard/toolyard/workers/stages"
)

// defaultConcurrency is how many messages a stage handles at once in one
// process (and asks for in one pull). 8 took 0.88 of the CPU per intent
// that 4 did (eight pairs of 'toolyard bench pipeline --intents 5000',
// 0.84–0.96, 2026-11-27; docs/benchmarks.md): a pull fetches more at once
// and the server's consumers wake less per message. It is also the most
// tools one session may have running on an execute worker
// (--session-executions 8), so no session meets that limit from this
// alone; 16 would (13 % less CPU than 4), so it is the operator's choice.
const defaultConcurrency = 8

// stageFlags are the settings shared by every process that runs stages.
type stageFlags struct {
	registry     string
	concurrency  int
	localHandOff bool
	ackWait      time.Duration
	maxDeliver   int
	activate     float64
	multiple     float64
	weak         float64
	httpAddr     string
	mode         string
	embedder     embed.Config
	encoder      string
	sess         sessionFlags
	llm          llmFlags
	join         joinFlags
	guard        guardFlags
	effects      effectFlags
	limits       limitFlags
	prefetch     bool
	prefetchWait time.Duration
	trace        traceFlags
	// discovery says how discovery runs, once discoveryOptions has set it
	// up: what start-up banners print.
	discovery string
}

func (f *stageFlags) register(cmd *cobra.Command, httpDefault string) {
	fl := cmd.Flags()
	fl.StringVar(&f.registry, "registry", "", "import this registry file (JSONL or JSON array of manifests) into the shared registry first; identical tools are left alone, a different tool under a registered id is refused")
	fl.IntVar(&f.concurrency, "concurrency", defaultConcurrency, "messages handled at once per stage in this process")
	fl.BoolVar(&f.localHandOff, "local-handoff", true, "a stage hands its work straight to the next stage when this process runs that stage too, instead of through the PIPE stream (the same results, less CPU per intent; every stage still consumes its stream); false: every hand-off goes through the stream")
	fl.DurationVar(&f.ackWait, "ack-wait", 30*time.Second, "how long a message may go unacknowledged before another worker gets it (long handlers send heartbeats)")
	fl.IntVar(&f.maxDeliver, "max-deliver", 5, "deliveries before a failing message is dead-lettered")
	th := route.DefaultThresholds()
	fl.Float64Var(&f.activate, "activate-threshold", th.Activate, "confidence at or above which the top tool is executed")
	fl.Float64Var(&f.multiple, "multiple-threshold", th.Multiple, "confidence at or above which alternatives are offered")
	fl.Float64Var(&f.weak, "weak-threshold", th.Weak, "confidence at or above which weak matches are listed; below it: not found")
	fl.StringVar(&f.mode, "discovery", "auto", "discovery mode: hybrid (keyword + vectors), keyword, vector, or auto (hybrid when the embedder is available)")
	fl.StringVar(&f.embedder.Provider, "embedder", "local", "embedder: local (offline word vectors built into the binary), ollama, openai (any OpenAI-compatible endpoint), or none")
	fl.StringVar(&f.embedder.Model, "embedder-model", "", "embedding model for ollama/openai (e.g. all-minilm, nomic-embed-text, text-embedding-3-small)")
	fl.StringVar(&f.embedder.URL, "embedder-url", "", "embedding endpoint for ollama/openai (e.g. http://127.0.0.1:11434)")
	fl.StringVar(&f.encoder, "encoder", "none", "sentence encoder added to hybrid discovery: none, or use-lite (Universal Sentence Encoder lite, built into the binary: better ranking of paraphrased and multi-part requests for a few ms more per search and per new tool)")
	f.llm.register(fl)
	f.sess.register(cmd)
	f.join.register(fl)
	f.guard.register(fl)
	f.effects.register(fl)
	f.limits.register(fl)
	fl.BoolVar(&f.prefetch, "prefetch", true, "run the predict stage on agent.stream.<session> and let discover answer from its prefetched searches when they are of the intent's exact words (workers/predict)")
	fl.DurationVar(&f.prefetchWait, "prefetch-wait", 2*time.Second, "how long discover waits for a matching prefetched search still running before searching afresh")
	f.trace.register(fl)
	fl.StringVar(&f.httpAddr, "http", httpDefault, "address of /metrics, /healthz, /readyz (and the status page with up); empty disables")
}

// listenHTTP binds --http (nil when it is off): first, so a taken
// address is the one thing said when it is.
func (f *stageFlags) listenHTTP() (net.Listener, error) {
	if f.httpAddr == "" {
		return nil, nil
	}
	return pipeline.ListenOps(f.httpAddr)
}

// check refuses settings that are wrong before anything starts, each in
// one line naming its flag: some were taken silently (--concurrency 0 ran
// 4 a stage and the banner said 0; --ack-wait 0 took the server's 30 s;
// --max-deliver 0 made the consumer redeliver forever, so a message whose
// workers kept dying was never dead-lettered; --seed-k -1 failed every
// session's seeding later).
func (f *stageFlags) check() error {
	if err := f.trace.check(); err != nil {
		return err
	}
	if err := f.thresholds().Validate(); err != nil {
		return err
	}
	for _, c := range []struct {
		flag string
		ok   bool
		want string
	}{
		{"--concurrency", f.concurrency >= 1, "at least 1"},
		{"--max-deliver", f.maxDeliver >= 1, "at least 1"},
		{"--ack-wait", f.ackWait > 0, "a positive duration"},
		{"--seed-k", !f.sess.on || f.sess.seedK >= 1, "at least 1"},
		// The effect options take only these (effects.With*): anything else
		// silently meant the default.
		{"--lease", f.effects.lease > 0, "a positive duration"},
		{"--execution-ttl", f.effects.ttl > 0, "a positive duration"},
		{"--busy-wait", f.effects.busyWait >= 0, "a duration of 0 or more"},
		{"--retry-budget", f.effects.retryBudget >= 0, "a duration of 0 or more (0: no retries)"},
	} {
		if !c.ok {
			return fmt.Errorf("%s %s: want %s", c.flag, f.flagValue(c.flag), c.want)
		}
	}
	return nil
}

// flagValue is the value a flag was given, as typed.
func (f *stageFlags) flagValue(name string) string {
	if f.sess.cmd != nil {
		if fl := f.sess.cmd.Flags().Lookup(strings.TrimPrefix(name, "--")); fl != nil {
			return fl.Value.String()
		}
	}
	return "?"
}

// thresholds are the routing tiers the flags set.
func (f *stageFlags) thresholds() route.Thresholds {
	return route.Thresholds{Activate: f.activate, Multiple: f.multiple, Weak: f.weak}
}

// followRegistry builds the stage set from the shared registry (the tools KV
// bucket) and keeps it in step. The --registry file, if given, is imported
// first; seedSample fills an empty registry with the sample tools.
func (f *stageFlags) followRegistry(ctx context.Context, js jetstream.JetStream, seedSample bool, log *slog.Logger) (*stages.Set, error) {
	store, err := registry.OpenStore(ctx, js)
	if err != nil {
		return nil, err
	}
	switch {
	case f.registry != "":
		ms, err := registry.LoadFile(f.registry)
		if err != nil {
			return nil, err
		}
		rep, err := store.Import(ctx, ms, false)
		if errors.Is(err, registry.ErrConflict) {
			return nil, fmt.Errorf("import %s: %w (the registry keeps its own; to overwrite them: 'toolyard tools import --replace %s' against the running server)", f.registry, err, f.registry)
		}
		if err != nil {
			return nil, fmt.Errorf("import %s: %w", f.registry, err)
		}
		log.Info("registry file imported", "file", f.registry, "added", len(rep.Added), "unchanged", len(rep.Unchanged))
	case seedSample:
		existing, err := store.List(ctx)
		if err != nil {
			return nil, err
		}
		if len(existing) == 0 {
			ms, err := sample.Tools()
			if err != nil {
				return nil, err
			}
			if _, err := store.Import(ctx, ms, false); err != nil {
				return nil, fmt.Errorf("seed the sample registry: %w", err)
			}
			log.Info("empty registry seeded with the sample tools", "tools", len(ms))
		}
	}
	dopts, err := f.discoveryOptions(ctx, js, log)
	if err != nil {
		return nil, err
	}
	resolver, chooser, err := f.llm.stageParts(log)
	if err != nil {
		return nil, err
	}
	sc, err := f.sess.config(ctx, js, log)
	if err != nil {
		return nil, err
	}
	gopts, err := f.guard.options(js, log)
	gopts = append(gopts, f.effects.executorOptions()...)
	if err != nil {
		return nil, err
	}
	limits, err := f.limits.limits()
	if err != nil {
		return nil, err
	}
	set, err := stages.New(stages.Config{Thresholds: f.thresholds(), Discover: dopts, Resolver: resolver, Disambiguator: chooser, ChooseTimeout: f.llm.timeout, Log: log, Sessions: sc,
		Execute: append(executeOptions(ctx, log, f.guard.confine.mcpOptions()...), gopts...), Join: f.join.options(), ExecuteStage: f.effects.stageOptions(), Limits: limits, Prefetch: f.prefetchConfig()})
	if err != nil {
		return nil, err
	}
	f.llm.follow(set.Registry())
	if err := set.Follow(ctx, store); err != nil {
		return nil, fmt.Errorf("load the registry: %w", err)
	}
	ms, err := models.Open(ctx, js)
	if err != nil {
		return nil, err
	}
	set.FollowModels(ctx, ms)
	return set, nil
}

// noVectorsWarning is said at start-up, in the log and in up's banner, by
// a build without the word vectors: it still runs, far worse.
const noVectorsWarning = "THIS BUILD HAS NO WORD VECTORS: discovery is keyword-only and ranks far worse; build with 'make build' (it runs 'make embeddings')"

// discoveryOptions sets up the vector side: the embedder and the shared
// vector cache. Without vectors, discovery runs keyword-only and says so.
func (f *stageFlags) discoveryOptions(ctx context.Context, js jetstream.JetStream, log *slog.Logger) ([]discover.Option, error) {
	mode, err := discover.ParseMode(f.mode)
	if err != nil {
		return nil, err
	}
	// The encoder is checked first: one asked for and missing is a
	// configuration error whatever the embedder does.
	enc, err := embed.NewEncoder(f.encoder)
	if err != nil {
		return nil, fmt.Errorf("--encoder: %w", err)
	}
	// A misspelt provider is a configuration error, not an embedder that
	// is down: it used to start keyword-only with a warning in the log.
	f.embedder.Provider = strings.ToLower(f.embedder.Provider)
	switch f.embedder.Provider {
	case "", "none", embed.ProviderLocal, embed.ProviderOllama, embed.ProviderOpenAI:
	default:
		return nil, fmt.Errorf("--embedder %q: want %s, %s, %s or none", f.embedder.Provider, embed.ProviderLocal, embed.ProviderOllama, embed.ProviderOpenAI)
	}
	opts := []discover.Option{discover.WithMode(mode)}
	keywordOnly := func(reason string, args ...any) ([]discover.Option, error) {
		if enc != nil {
			log.Warn("sentence encoder not used: it needs hybrid discovery", "encoder", enc.ID())
		}
		log.Info("discovery is keyword-only", append([]any{"reason", reason}, args...)...)
		if f.discovery == "" {
			f.discovery = "keyword-only (" + reason + ")"
		}
		return opts, nil
	}
	if f.embedder.Provider == "none" || mode == discover.ModeKeyword {
		return keywordOnly("configured")
	}
	e, err := embed.New(ctx, f.embedder)
	if err != nil {
		if mode == discover.ModeVector || mode == discover.ModeHybrid {
			return nil, fmt.Errorf("discovery mode %s needs the embedder: %w", mode, err)
		}
		if errors.Is(err, embed.ErrUnavailable) && f.embedder.Provider == embed.ProviderLocal {
			log.Warn(noVectorsWarning, "error", err)
			f.discovery = noVectorsWarning
		} else {
			log.Warn("embedder unavailable", "embedder", f.embedder.Provider, "error", err)
		}
		return keywordOnly("embedder unavailable")
	}
	opts = append(opts, discover.WithEmbedder(e))
	f.discovery = mode.String()
	if mode == discover.ModeAuto {
		f.discovery = discover.ModeHybrid.String()
	}
	f.discovery += " (" + e.ID()
	if enc != nil {
		opts = append(opts, discover.WithEncoder(enc))
		f.discovery += ", encoder " + enc.ID()
	}
	f.discovery += ")"
	if js == nil {
		return opts, nil
	}
	cache, err := embed.OpenKVCache(ctx, js)
	if err != nil {
		return nil, err
	}
	preload := func(side embed.Embedder) int {
		n, err := cache.Preload(ctx, side.ID())
		if err != nil {
			log.Warn("vector cache not preloaded; tools will be embedded again", "embedder", side.ID(), "error", err)
		}
		return n
	}
	attrs := []any{"embedder", e.ID(), "cached_vectors", preload(e)}
	if enc != nil {
		attrs = append(attrs, "encoder", enc.ID(), "cached_encodings", preload(enc))
	}
	log.Info("discovery is hybrid", attrs...)
	return append(opts, discover.WithVectorCache(cache)), nil
}

// runStages runs the named stages until ctx ends; ready, when not nil, is
// called once every stage takes work (pipeline.WithReady).
func (f *stageFlags) runStages(ctx context.Context, js jetstream.JetStream, set *stages.Set, names []string, metrics *pipeline.Metrics, log *slog.Logger, ready func()) error {
	tp, stopTraces, err := f.trace.provider(ctx, names, log)
	if err != nil {
		return err
	}
	defer stopTraces()
	g, gctx := errgroup.WithContext(ctx)
	var local *pipeline.Local
	if f.localHandOff {
		local = pipeline.NewLocal()
	}
	var started sync.WaitGroup
	for _, name := range names {
		if name == predict.StageName {
			g.Go(func() error { return set.RunPredict(gctx, js) })
			continue
		}
		st, err := set.Stage(name)
		if err != nil {
			return err
		}
		if st.Chainable && !slices.Contains(names, bind.StageParse) {
			log.Info("a process that runs parse together with this stage (as up does) keeps that work to itself (--local-handoff); this one shares only what reaches the stream: see 'toolyard worker --help'", "stage", name)
		}
		started.Add(1)
		done := sync.OnceFunc(started.Done)
		g.Go(func() error {
			defer done()
			// Run's errors name the stage.
			return pipeline.Run(gctx, js, st,
				pipeline.WithConcurrency(f.concurrency), pipeline.WithAckWait(f.ackWait),
				pipeline.WithMaxDeliver(f.maxDeliver), pipeline.WithMetrics(metrics),
				pipeline.WithLogger(log), pipeline.WithTracerProvider(tp), pipeline.WithLocal(local),
				pipeline.WithReady(done))
		})
	}
	if ready != nil {
		go func() {
			started.Wait()
			if gctx.Err() == nil {
				ready()
			}
		}()
	}
	return g.Wait()
}

// prefetchConfig is the predictor's configuration, nil when --prefetch is off.
func (f *stageFlags) prefetchConfig() *stages.PrefetchConfig {
	if !f.prefetch {
		return nil
	}
	return &stages.PrefetchConfig{Wait: f.prefetchWait}
}

// withPrefetch adds the predict stage to names when prefetch is on.
func (f *stageFlags) withPrefetch(names []string) []string {
	if !f.prefetch {
		return names
	}
	return append(slices.Clone(names), predict.StageName)
}
