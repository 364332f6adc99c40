package execute

import (
	"context"
	"log/slog"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// Defaults of the options.
const (
	DefaultTimeout        = 10 * time.Second
	DefaultMaxOutputBytes = 4 << 20 // a hard cap; output over InlineOutputBytes goes to the outputs object store
	// StderrTailBytes is how much of the end of stderr a ToolOutput keeps.
	StderrTailBytes = 4 << 10
)

type config struct {
	timeout   time.Duration
	maxOutput int
	env       []string
	log       *slog.Logger
	runners   map[string]RunFunc
	guard     guardConfig  // permissions, scope, signatures (guard.go)
	remote    remoteConfig // http and nats executors (http.go, natsreq.go)
	sessions  *Sessions    // find_tools and activate (sessions.go)
	retry     retryConfig
	roots     []string // path roots (confine.go); DefaultPathRoots unless rootsSet
	rootsSet  bool
	proc      procConfig // subprocess limits and user (limits.go)
}

// Option configures an Executor.
type Option func(*config)

// WithDefaultTimeout sets how long a subprocess may run when its manifest
// sets no timeout (10s by default).
func WithDefaultTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.timeout = d
		}
	}
}

// WithMaxOutputBytes sets how much stdout a call keeps when its manifest
// sets no cap (4 MiB by default); the rest is read and dropped.
func WithMaxOutputBytes(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxOutput = n
		}
	}
}

// WithEnv allows more environment variables of the worker through to every
// subprocess, on top of PATH, HOME and LANG.
func WithEnv(names ...string) Option {
	return func(c *config) { c.env = append(c.env, names...) }
}

// WithLogger sets the logger (slog.Default() by default).
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.log = l
		}
	}
}

// RunFunc runs a tool whose executor is of a kind this package does not
// implement itself (http, nats, mcp, …). m is the manifest that names the
// executor; call.Parameters are validated and carry the schema defaults.
type RunFunc func(ctx context.Context, m schemas.Manifest, call schemas.ToolCall) (schemas.ToolOutput, error)

// WithRunner runs executors of the given kind with f, so new transports
// plug in without changing the dispatcher.
func WithRunner(kind string, f RunFunc) Option {
	return func(c *config) {
		if c.runners == nil {
			c.runners = map[string]RunFunc{}
		}
		c.runners[kind] = f
	}
}
