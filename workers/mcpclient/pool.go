package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MetaIdempotencyKey is the _meta key of a tools/call request that carries
// the call's idempotency key: the same key means the same intended effect,
// so a server that dedupes can answer a repeat without acting twice.
const MetaIdempotencyKey = "io.toolyard/idempotency-key"

// ErrClosed: the pool was closed.
var ErrClosed = errors.New("MCP client pool closed")

// Pool keeps one session per server, shared by concurrent calls (an MCP
// session multiplexes requests), and opens a new one after a failure. It is
// safe for concurrent use.
type Pool struct {
	cfg    config
	client *mcp.Client

	mu       sync.Mutex
	sessions map[string]*pooled
	closed   bool
}

// pooled is one server's session, or the attempt to open it.
type pooled struct {
	srv    Server
	ready  chan struct{} // closed when the connect attempt ended
	cs     *mcp.ClientSession
	err    error
	stderr *tailBuffer
}

// NewPool returns an empty pool; sessions open on first use.
func NewPool(opts ...Option) *Pool {
	cfg := newConfig(opts)
	return &Pool{cfg: cfg, client: newClient(cfg, nil), sessions: map[string]*pooled{}}
}

// session returns srv's live session, opening one if needed. fresh is true
// when this call opened it.
func (p *Pool) session(ctx context.Context, srv Server) (s *pooled, fresh bool, err error) {
	key := srv.Key()
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, false, ErrClosed
	}
	s, ok := p.sessions[key]
	if !ok {
		s = &pooled{srv: srv, ready: make(chan struct{}), stderr: &tailBuffer{max: stderrTail}}
		p.sessions[key] = s
		fresh = true
	}
	p.mu.Unlock()

	if fresh {
		// The session outlives this call: its handshake is bounded by the
		// connect timeout, not by the caller's deadline.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.cfg.connectTimeout)
		s.cs, s.err = connect(cctx, p.client, srv, s.stderr, p.cfg.cred)
		cancel()
		close(s.ready)
		if s.err != nil {
			p.forget(s)
			return nil, true, s.err
		}
		p.cfg.log.Debug("MCP session opened", "server", srv.String())
		go p.watchEnd(s)
		return s, true, nil
	}
	select {
	case <-s.ready:
	case <-ctx.Done():
		return nil, false, &TransportError{Server: srv.String(), Op: "connect", Err: ctx.Err()}
	}
	if s.err != nil {
		return nil, false, s.err
	}
	return s, false, nil
}

// watchEnd forgets a session as soon as its server ends it (a stdio server
// exits, an HTTP session is gone), so the next call starts a new one.
func (p *Pool) watchEnd(s *pooled) {
	err := s.cs.Wait()
	if p.forget(s) {
		p.cfg.log.Info("MCP session ended; the next call opens a new one", "server", s.srv.String(), "error", err, "stderr", s.stderr.String())
	}
}

// forget removes s from the pool if it is still there.
func (p *Pool) forget(s *pooled) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	key := s.srv.Key()
	if p.sessions[key] == s {
		delete(p.sessions, key)
		return true
	}
	return false
}

// drop forgets a failed session and closes it.
func (p *Pool) drop(s *pooled) {
	p.forget(s)
	go s.cs.Close()
}

// do runs f on srv's session. A transport failure drops the session; when
// the request cannot have left (the session was already closed) f runs once
// more on a fresh session.
func (p *Pool) do(ctx context.Context, srv Server, op string, f func(*mcp.ClientSession) error) error {
	for attempt := 0; ; attempt++ {
		s, fresh, err := p.session(ctx, srv)
		if err != nil {
			return err
		}
		err = f(s.cs)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			// The caller's deadline, not the session, failed: a slow tool
			// does not cost the other calls their session.
			return &TransportError{Server: srv.String(), Op: op, Err: fmt.Errorf("%w (%w)", ctx.Err(), err)}
		}
		cerr := classify(srv, op, err, s.stderr.String())
		if !IsTransport(cerr) {
			return cerr
		}
		p.drop(s)
		if !fresh && attempt == 0 && notSent(err) {
			p.cfg.log.Debug("MCP session was closed; sending again on a new one", "server", srv.String(), "op", op, "error", err)
			continue
		}
		return cerr
	}
}

// notSent: the request was refused before the server could act on it.
func notSent(err error) bool {
	return errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, mcp.ErrSessionMissing)
}

// CallTool calls the tool name on srv with args. A tool's own failure is a
// result with IsError set, not an error. key, if not empty, goes to the
// server as the request's idempotency key (_meta MetaIdempotencyKey).
func (p *Pool) CallTool(ctx context.Context, srv Server, name string, args map[string]any, key string) (*mcp.CallToolResult, error) {
	var res *mcp.CallToolResult
	err := p.do(ctx, srv, "call tool "+name, func(cs *mcp.ClientSession) error {
		params := &mcp.CallToolParams{Name: name, Arguments: args}
		if key != "" {
			params.Meta = mcp.Meta{MetaIdempotencyKey: key}
		}
		var err error
		res, err = cs.CallTool(ctx, params)
		return err
	})
	return res, err
}

// ListTools lists every tool of srv, across all pages.
func (p *Pool) ListTools(ctx context.Context, srv Server) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	err := p.do(ctx, srv, "list tools", func(cs *mcp.ClientSession) error {
		var err error
		tools, err = listAll(ctx, cs)
		return err
	})
	return tools, err
}

// listAll follows the cursors to the last page.
func listAll(ctx context.Context, cs *mcp.ClientSession) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	seen := map[string]bool{}
	cursor := ""
	for {
		res, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			return nil, err
		}
		tools = append(tools, res.Tools...)
		if res.NextCursor == "" {
			return tools, nil
		}
		// A server that hands out a cursor twice would page forever.
		if seen[res.NextCursor] {
			return nil, fmt.Errorf("tools/list: the server repeated cursor %q", res.NextCursor)
		}
		seen[res.NextCursor] = true
		cursor = res.NextCursor
	}
}

// Sessions is how many sessions are open.
func (p *Pool) Sessions() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.sessions)
}

// Close ends every session (stdio servers are stopped) and refuses new calls.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	all := p.sessions
	p.sessions = map[string]*pooled{}
	p.mu.Unlock()
	var errs []error
	for _, s := range all {
		<-s.ready
		if s.cs != nil {
			if err := s.cs.Close(); err != nil && !errors.Is(err, mcp.ErrConnectionClosed) {
				errs = append(errs, fmt.Errorf("close MCP session %s: %w", s.srv, err))
			}
		}
	}
	return errors.Join(errs...)
}
