package mcpclient

import (
	"log/slog"
	"syscall"
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
	cred           *syscall.Credential // user stdio servers run as (WithRunAs)
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

// WithRunAs starts stdio servers as the user uid:gid, with no
// supplementary groups (the worker must be root), as subprocess tools run
// with the worker's --run-as.
func WithRunAs(uid, gid uint32) Option {
	return func(c *config) { c.cred = &syscall.Credential{Uid: uid, Gid: gid, Groups: []uint32{}} }
}
