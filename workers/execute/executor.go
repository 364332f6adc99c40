package execute

import (
	"context"
	"log/slog"
	"maps"
	"os"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
)

// SearchFunc finds the k tools that best match a plain-language query, best
// first. The search meta-tool uses it.
type SearchFunc func(ctx context.Context, query string, k int) ([]schemas.Candidate, error)

// Executor runs tool calls against a registry. It is safe for concurrent use.
type Executor struct {
	reg      *registry.Registry
	search   SearchFunc
	cfg      config
	builtins map[string]schemas.Manifest
	byMeta   map[string]schemas.Manifest
	schemas  paramCache
	helps    helpCache
	roots    pathRoots
	// wd is the working directory at start: where relative path
	// arguments of local tools start (pathBase), as relative roots do.
	wd string
	// home is what a path argument's leading "~" stands for, as a shell
	// expands it ("~/Downloads"): the home of the user tools run as (the
	// run-as user's, else the worker's); "" when unknown, and "~" is
	// then a name like any other.
	home string
}

// New returns an Executor for the tools of reg. search backs the search
// meta-tool; with nil, a plain word match over the registry stands in.
func New(reg *registry.Registry, search SearchFunc, opts ...Option) *Executor {
	cfg := config{timeout: DefaultTimeout, maxOutput: DefaultMaxOutputBytes, log: slog.Default()}
	for _, o := range opts {
		o(&cfg)
	}
	cfg.guard.serials = &serialMarks{}
	if !cfg.rootsSet {
		cfg.roots = DefaultPathRoots()
	}
	roots, err := newPathRoots(cfg.roots)
	if err != nil {
		cfg.log.Warn("path roots", "error", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		cfg.log.Warn("working directory: relative path arguments of local tools start at /", "error", err)
		wd = "/"
	}
	home, _ := os.UserHomeDir()
	if r := cfg.proc.runAs; r != nil {
		home = r.Home
	}
	e := &Executor{reg: reg, search: search, cfg: cfg, roots: roots, wd: wd, home: home,
		builtins: map[string]schemas.Manifest{}, byMeta: map[string]schemas.Manifest{}}
	for _, m := range BuiltinManifests() {
		e.builtins[m.ID] = m
		e.byMeta[m.Executor.Builtin] = m
	}
	return e
}

// Execute runs a call. On success the output's Content is the tool's stdout
// (subprocesses) or a JSON-shaped value (builtins). A *ToolError comes with
// the output of the failed run; see the package doc for the other errors.
func (e *Executor) Execute(ctx context.Context, call schemas.ToolCall) (schemas.ToolOutput, error) {
	out, _, err := e.execute(ctx, call)
	return out, err
}

// ExecuteForResult runs a call as Execute does and also returns its
// arguments as its result shows them (what ResultArguments returns), taken
// from the validation the run itself did instead of validating them again.
func (e *Executor) ExecuteForResult(ctx context.Context, call schemas.ToolCall) (schemas.ToolOutput, map[string]any, error) {
	out, ran, err := e.execute(ctx, call)
	return out, e.shownArguments(ctx, call, ran), err
}

// execute runs a call; ran is what its arguments became when the schema of
// the tool it names prepared them (nil when the run never got that far).
func (e *Executor) execute(ctx context.Context, call schemas.ToolCall) (schemas.ToolOutput, map[string]any, error) {
	if err := ctx.Err(); err != nil {
		return schemas.ToolOutput{}, nil, transient(err)
	}
	start := time.Now()
	ctx, span := startCallSpan(ctx, call)
	ctx = withCallKey(ctx, call)
	var ran map[string]any
	out, err := e.withRetries(ctx, call, func(ctx context.Context) (schemas.ToolOutput, error) { return e.dispatch(ctx, call, &ran) })
	if out.DurationMS == 0 {
		out.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	}
	if err != nil {
		e.cfg.log.Debug("call failed", "meta_tool", call.MetaTool, "tool", call.ToolID, "intent_id", call.IntentID,
			"transient", IsTransient(err), "err", err)
	}
	endCallSpan(ctx, span, out, err)
	return out, ran, err
}

// dispatch runs a call once; it sets *ran as execute describes.
func (e *Executor) dispatch(ctx context.Context, call schemas.ToolCall, ran *map[string]any) (schemas.ToolOutput, error) {
	switch call.MetaTool {
	case schemas.MetaSearch, schemas.MetaLoad, schemas.MetaHelp:
		m := e.byMeta[call.MetaTool]
		params, _, err := e.prepare(m, call.Parameters)
		if err != nil {
			return schemas.ToolOutput{}, err
		}
		if e.shownBy(m, call.ToolID) {
			*ran = maps.Clone(params)
		}
		return e.builtinOutput(ctx, call.MetaTool, call, params)
	case schemas.MetaExecute, "":
		if call.ToolID == "" {
			return schemas.ToolOutput{}, badCall(ErrBadCall, "execute needs a tool_id; find one with [TOOL: search for tools that …]")
		}
		return e.run(ctx, call, ran)
	}
	return schemas.ToolOutput{}, badCall(ErrBadCall, "unknown meta-tool %q (meta-tools: search, load, help, execute)", call.MetaTool)
}

// run executes the registry tool call.ToolID, following delegation; it
// sets *ran to the arguments as the first tool's schema prepared them.
func (e *Executor) run(ctx context.Context, call schemas.ToolCall, ran *map[string]any) (schemas.ToolOutput, error) {
	chain, err := e.chain(ctx, call.ToolID)
	if err != nil {
		return schemas.ToolOutput{}, err
	}
	if err := e.guard(call, chain); err != nil {
		return schemas.ToolOutput{}, err
	}
	m := chain[len(chain)-1]
	x := m.Executor
	if x == nil {
		// Said before any parameter problem: fixing those would not help.
		via := ""
		if len(chain) > 1 {
			via = " (reached through " + ids(chain) + ")"
		}
		return schemas.ToolOutput{}, badCall(ErrNoExecutor, "tool %s has no executor configured; it can be discovered but not run here%s", m.ID, via)
	}
	// The caller saw the first tool's schema; the last one's is what its
	// executor was written against. Both must accept the arguments.
	params, info, err := e.prepare(chain[0], call.Parameters)
	if err != nil {
		return schemas.ToolOutput{}, err
	}
	// A copy: the tool gets params and must not change what the result shows.
	*ran = maps.Clone(params)
	if len(chain) > 1 {
		if params, info, err = e.prepare(m, params); err != nil {
			return schemas.ToolOutput{}, err
		}
	}
	if err := e.confinePaths(m, params, info); err != nil {
		return schemas.ToolOutput{}, err
	}
	params = e.localPaths(m, params, info)
	call.Parameters = params
	switch x.Kind {
	case schemas.ExecBuiltin:
		return e.builtinOutput(ctx, x.Builtin, call, params)
	case schemas.ExecSubprocess:
		return e.runSubprocess(ctx, m, call, params, info)
	}
	if f, ok := e.cfg.runners[x.Kind]; ok {
		return f(ctx, m, call)
	}
	switch x.Kind {
	case schemas.ExecHTTP:
		return e.runHTTP(ctx, m, call, params, info)
	case schemas.ExecNATS:
		return e.runNATS(ctx, m, call, params, info)
	}
	return schemas.ToolOutput{}, badCall(ErrUnsupported, "tool %s has an executor of kind %q, which this worker cannot run", m.ID, x.Kind)
}

func (e *Executor) builtinOutput(ctx context.Context, name string, call schemas.ToolCall, params map[string]any) (schemas.ToolOutput, error) {
	content, err := e.runBuiltin(ctx, name, call, params)
	if err != nil {
		return schemas.ToolOutput{}, err
	}
	return schemas.ToolOutput{Content: content}, nil
}
