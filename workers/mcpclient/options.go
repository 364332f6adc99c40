package mcpclient

import (
	"log/slog"
	"time"
)

// Defaults of the options.
const (
	DefaultConnectTimeout = 30 * time.Second
	// stderrTail is how much of a stdio server's stderr is kept for error
	// messages.
	stderrTail = 2 << 10
)

type config struct {
	log            *slog.Logger
	connectTimeout time.Duration
	name, version  string
}

func newConfig(opts []Option) config {
	c := config{log: slog.Default(), connectTimeout: DefaultConnectTimeout, name: "toolyard", version: "dev"}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// Option configures a Pool or a Watch.
type Option func(*config)

// WithLogger sets the logger (slog.Default() by default).
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.log = l
		}
	}
}

// WithConnectTimeout bounds starting a server and the MCP handshake (30s by
// default). It is separate from a call's own deadline because the session
// outlives the call that opened it.
func WithConnectTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.connectTimeout = d
		}
	}
}

// WithClientInfo sets the name and version the client announces.
func WithClientInfo(name, version string) Option {
	return func(c *config) {
		if name != "" {
			c.name = name
		}
		if version != "" {
			c.version = version
		}
	}
}
