// Package stages assembles the pipeline stages from their cores: what a
// process needs to run one stage (toolyard worker) or all of them (toolyard up).
package stages

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/execute"
	"github.com/toolyard/toolyard/workers/parse"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/resolve"
	"github.com/toolyard/toolyard/workers/route"
)

// Config is what the stages are built from.
type Config struct {
	// Tools is the registry; the builtin meta-tools are added to it.
	Tools      []schemas.Manifest
	Thresholds route.Thresholds
	Parse      []parse.Option
	Execute    []execute.Option
	Log        *slog.Logger
}

// Set is the cores shared by the stages of one process.
type Set struct {
	cfg      Config
	builtin  map[string]bool
	registry *registry.Registry
	engine   *discover.Engine
	executor *execute.Executor
}

// New builds the shared cores: the registry with the builtins, and the search index.
func New(cfg Config) (*Set, error) {
	if cfg.Thresholds == (route.Thresholds{}) {
		cfg.Thresholds = route.DefaultThresholds()
	}
	if err := cfg.Thresholds.Validate(); err != nil {
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
	engine, err := discover.New(reg.All())
	if err != nil {
		return nil, fmt.Errorf("build search index: %w", err)
	}
	s := &Set{cfg: cfg, builtin: isBuiltin, registry: reg, engine: engine}
	s.executor = execute.New(reg, func(ctx context.Context, q string, k int) ([]schemas.Candidate, error) {
		return engine.Search(ctx, q, k, nil)
	}, cfg.Execute...)
	return s, nil
}

// Registry is the set's tool registry.
func (s *Set) Registry() *registry.Registry { return s.registry }

// Engine is the set's discovery engine.
func (s *Set) Engine() *discover.Engine { return s.engine }

// Stage returns the named stage.
func (s *Set) Stage(name string) (pipeline.Stage, error) {
	switch name {
	case bind.StageParse:
		return parse.Stage(parse.New(s.cfg.Parse...)), nil
	case bind.StageDiscover:
		return discover.Stage(s.engine), nil
	case bind.StageRoute:
		return route.Stage(s.cfg.Thresholds), nil
	case bind.StageResolve:
		return resolve.Stage(s.registry), nil
	case bind.StageExecute:
		return execute.Stage(s.executor), nil
	}
	return pipeline.Stage{}, fmt.Errorf("unknown stage %q (stages: %s)", name, strings.Join(bind.Stages, ", "))
}

// Valid reports whether name is a stage.
func Valid(name string) bool { return slices.Contains(bind.Stages, name) }
