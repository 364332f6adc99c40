// Package stages assembles the pipeline stages from their cores: what a
// process needs to run one stage (toolyard worker) or all of them (toolyard up).
package stages

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/execute"
	"github.com/toolyard/toolyard/workers/join"
	"github.com/toolyard/toolyard/workers/parse"
	"github.com/toolyard/toolyard/workers/predict"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/resolve"
	"github.com/toolyard/toolyard/workers/route"
	"github.com/toolyard/toolyard/workers/session"
	"github.com/toolyard/toolyard/workers/shortcut"
)

// Config is what the stages are built from.
type Config struct {
	// Tools is the registry; the builtin meta-tools are added to it.
	Tools      []schemas.Manifest
	Thresholds route.Thresholds
	Parse      []parse.Option
	Execute    []execute.Option
	// ExecuteStage are the execute binding's options. Nil means exactly-once
	// effects and the outputs object store with their defaults
	// (execute.WithEffects); an empty list turns them off.
	ExecuteStage []execute.StageOption
	// Join are the join stage's options (timeout, input size).
	Join []join.Option
	// Discover are the discovery engine's options: embedder, vector cache,
	// mode, calibration. With none, discovery is keyword-only.
	Discover []discover.Option
	// Resolver, when set, resolves activated intents in front of the
	// deterministic rules (the LLM resolver, workers/llmresolve).
	Resolver resolve.Resolver
	// Disambiguator, when set, may pick the tool of a medium-tier intent
	// (the choose stage) within ChooseTimeout (route.DefaultChooseTimeout
	// when 0); off by default.
	Disambiguator route.Disambiguator
	ChooseTimeout time.Duration
	// Sessions, when set, turns on session tool sets (the session stage,
	// find_tools and activate).
	Sessions *SessionConfig
	// Limits are the per-output and per-session limits; nil keeps every
	// stage's defaults.
	Limits *Limits
	// Prefetch, when set, turns on the predict stage and the discover
	// stage's use of its prefetched searches.
	Prefetch *PrefetchConfig
	Log      *slog.Logger
}

// Set is the cores shared by the stages of one process.
type Set struct {
	cfg        Config
	thresholds *route.Live
	builtin    map[string]bool
	registry   *registry.Registry
	engine     *discover.Engine
	executor   *execute.Executor
	catalog    *catalog
	// predictModel is the model version's part the predictor reads.
	predictModel atomic.Pointer[predict.Model]
	// shortcuts are the model version's learned shortcuts, for the
	// discover stage's hints.
	shortcuts atomic.Pointer[shortcut.Table]
	// lookup answers the discover stage from the prefetch bucket, once
	// the bucket is open.
	lookup prefetchLookup
	// loaded is set once the registry store's tools were loaded; until then
	// the index holds only what New was given and is rebuilt in one go.
	loaded bool
}

// New builds the shared cores: the registry with the builtins, and the search index.
func New(cfg Config) (*Set, error) {
	if cfg.Thresholds == (route.Thresholds{}) {
		cfg.Thresholds = route.DefaultThresholds()
	}
	live, err := route.NewLive(cfg.Thresholds)
	if err != nil {
		return nil, err
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	builtins := execute.BuiltinManifests()
	isBuiltin := make(map[string]bool, len(builtins))
	for _, m := range builtins {
		isBuiltin[m.ID] = true
	}
	tools := append(builtins, cfg.Tools...)
	reg := registry.New()
	for _, m := range tools {
		if _, dup := reg.Get(m.ID); dup {
			return nil, fmt.Errorf("tool id %q is reserved for a builtin meta-tool", m.ID)
		}
		reg.Put(m)
	}
	cfg.Discover = append([]discover.Option{discover.WithLogger(cfg.Log)}, cfg.Discover...)
	engine, err := discover.New(reg.All(), cfg.Discover...)
	if err != nil {
		return nil, fmt.Errorf("build search index: %w", err)
	}
	s := &Set{cfg: cfg, thresholds: live, builtin: isBuiltin, registry: reg, engine: engine}
	s.executor = execute.New(reg, func(ctx context.Context, q string, k int) ([]schemas.Candidate, error) {
		return s.engine.Search(ctx, q, k, nil)
	}, append(cfg.Execute, s.sessionOptions()...)...)
	s.catalog = &catalog{set: s}
	return s, nil
}

// rebuild indexes the registry anew in one go: far faster than adding a
// large registry tool by tool. Only before the stages run.
func (s *Set) rebuild(ms []schemas.Manifest) error {
	for _, m := range ms {
		if s.builtin[m.ID] {
			s.cfg.Log.Warn("registry entry ignored: the id belongs to a builtin meta-tool", "id", m.ID)
			continue
		}
		s.registry.Put(m)
	}
	engine, err := discover.New(s.registry.All(), s.cfg.Discover...)
	if err != nil {
		return fmt.Errorf("build search index: %w", err)
	}
	old := s.engine
	s.engine = engine
	return old.Close()
}

// Registry is the set's tool registry.
func (s *Set) Registry() *registry.Registry { return s.registry }

// Engine is the set's discovery engine.
func (s *Set) Engine() *discover.Engine { return s.engine }

// parser is the parse stage's parser, which redacts direct calls' secret
// arguments with the live registry's schemas.
func (s *Set) parser() *parse.Parser {
	popts := append([]parse.Option{parse.WithAuditSchemas(s.paramSchemas)}, s.cfg.Limits.parseOptions()...)
	return parse.New(append(popts, s.cfg.Parse...)...)
}

// Stage returns the named stage, with the secrets of its inputs listed
// for the runner: the stage's own (secret arguments of calls, tools'
// environment secrets) and the values an intent names for a secret
// parameter of any tool (cueSecrets).
func (s *Set) Stage(name string) (pipeline.Stage, error) {
	st, err := s.stage(name)
	if err != nil {
		return st, err
	}
	st.Secrets = withCues(st.Secrets, s.cueSecrets)
	return st, nil
}

func (s *Set) stage(name string) (pipeline.Stage, error) {
	switch name {
	case bind.StageParse:
		return parse.Stage(s.parser(), s.cfg.Limits.parseStageOptions()...), nil
	case bind.StageDiscover:
		return s.discoverStage(), nil
	case predict.StageName:
		return pipeline.Stage{}, fmt.Errorf("stage %s follows agent.stream.> on its own: run it with RunPredict", name)
	case bind.StageRoute:
		return route.Stage(s.thresholds, s.routeOptions()...), nil
	case bind.StageChoose:
		return route.ChooseStage(s.cfg.Log, s.routeOptions()...), nil
	case bind.StageAnswer:
		return route.AnswerStage(), nil
	case session.StageName:
		return s.sessionStage()
	case bind.StageResolve:
		return resolve.Stage(s.registry, resolve.WithResolver(s.cfg.Resolver)), nil
	case bind.StageExecute:
		opts := s.cfg.ExecuteStage
		if opts == nil {
			opts = []execute.StageOption{execute.WithEffects(0)}
		}
		opts = append(append([]execute.StageOption{execute.WithStageLogger(s.cfg.Log)}, s.cfg.Limits.executeStageOptions()...), opts...)
		return execute.Stage(s.executor, opts...), nil
	case bind.StageJoin:
		return join.Stage(join.New(append([]join.Option{join.WithLogger(s.cfg.Log)}, s.cfg.Join...)...)), nil
	}
	return pipeline.Stage{}, fmt.Errorf("unknown stage %q (stages: %s)", name, strings.Join(bind.Stages, ", "))
}

// Valid reports whether name is a stage.
func Valid(name string) bool {
	return slices.Contains(bind.Stages, name) || name == session.StageName || name == predict.StageName
}
