package mcpclient

import (
	"context"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ListTools opens a session to srv, lists every tool (all pages) and closes
// the session.
func ListTools(ctx context.Context, srv Server, opts ...Option) ([]*mcp.Tool, error) {
	p := NewPool(opts...)
	defer p.Close()
	return p.ListTools(ctx, srv)
}

// Watch calls fn with srv's tools, then again after every
// notifications/tools/list_changed the server sends, until ctx ends. When the
// session breaks it reconnects (with backoff) and lists again, so a change
// made meanwhile is not missed. An error from fn is logged and the watch
// goes on; Watch returns nil when ctx ends, or the first connect error when
// the server cannot be reached at all.
func Watch(ctx context.Context, srv Server, fn func(context.Context, []*mcp.Tool) error, opts ...Option) error {
	cfg := newConfig(opts)
	changed := make(chan struct{}, 1)
	client := newClient(cfg, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default: // a re-list is already due: it will see this change too
			}
		},
	})
	bo := backoff.NewExponentialBackOff()
	bo.InitialInterval, bo.MaxInterval, bo.MaxElapsedTime = 200*time.Millisecond, 10*time.Second, 0
	first := true
	for ctx.Err() == nil {
		stderr := &tailBuffer{max: stderrTail}
		cctx, cancel := context.WithTimeout(ctx, cfg.connectTimeout)
		cs, err := connect(cctx, client, srv, stderr, cfg.cred)
		cancel()
		if err != nil {
			if first {
				return err
			}
			cfg.log.Warn("MCP server unreachable; retrying", "server", srv.String(), "error", err)
			if !sleep(ctx, bo.NextBackOff()) {
				return nil
			}
			continue
		}
		first = false
		bo.Reset()
		watchSession(ctx, cfg, srv, cs, changed, fn)
		_ = cs.Close()
	}
	return nil
}

// watchSession lists the tools now and after each change, until the session
// or ctx ends.
func watchSession(ctx context.Context, cfg config, srv Server, cs *mcp.ClientSession, changed <-chan struct{}, fn func(context.Context, []*mcp.Tool) error) {
	ended := make(chan struct{})
	go func() { _ = cs.Wait(); close(ended) }()
	for {
		tools, err := listAll(ctx, cs)
		if err != nil {
			if ctx.Err() == nil {
				cfg.log.Warn("MCP tools/list failed; reconnecting", "server", srv.String(), "error", err)
			}
			return
		}
		if err := fn(ctx, tools); err != nil {
			cfg.log.Error("MCP tool list not applied", "server", srv.String(), "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-ended:
			cfg.log.Warn("MCP session ended; reconnecting", "server", srv.String())
			return
		case <-changed:
			cfg.log.Info("MCP server's tools changed; listing again", "server", srv.String())
		}
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
