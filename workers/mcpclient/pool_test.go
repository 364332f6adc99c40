package mcpclient_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/mcpclient"
	"github.com/toolyard/toolyard/workers/mcpclient/mcptest"
)

func newPool(t *testing.T) *mcpclient.Pool {
	t.Helper()
	p := mcpclient.NewPool(mcpclient.WithConnectTimeout(20 * time.Second))
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func callText(t *testing.T, p *mcpclient.Pool, srv mcpclient.Server, tool string, args map[string]any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := p.CallTool(ctx, srv, tool, args, "")
	if err != nil {
		t.Fatalf("call %s: %v", tool, err)
	}
	if res.IsError {
		t.Fatalf("call %s: tool error: %v", tool, mcpclient.Render(res))
	}
	s, ok := mcpclient.Render(res).(string)
	if !ok {
		t.Fatalf("call %s: rendered %T, want text", tool, mcpclient.Render(res))
	}
	return s
}

// The real reference servers from npm, over stdio.
func TestPoolCallsServerEverything(t *testing.T) {
	srv := mcpclient.Server{Command: []string{mcptest.Bin(t, mcptest.Everything)}}
	p := newPool(t)
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"echo", map[string]any{"message": "hello world"}, "Echo: hello world"},
		{"get-sum", map[string]any{"a": 2, "b": 3}, "5"},
	}
	for _, tc := range tests {
		t.Run(tc.tool, func(t *testing.T) {
			if got := callText(t, p, srv, tc.tool, tc.args); !strings.Contains(got, tc.want) {
				t.Fatalf("%s(%v) = %q, want it to contain %q", tc.tool, tc.args, got, tc.want)
			}
		})
	}
	if n := p.Sessions(); n != 1 {
		t.Fatalf("%d sessions for one server, want 1", n)
	}
}

func TestPoolServerFilesystem(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("first line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := mcpclient.Server{Command: []string{mcptest.Bin(t, mcptest.Filesystem), dir}}
	p := newPool(t)
	got := callText(t, p, srv, "list_directory", map[string]any{"path": dir})
	if !strings.Contains(got, "[FILE] notes.txt") {
		t.Fatalf("list_directory = %q, want the file listed", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// Outside the allowed directory: the server's own refusal, a tool error.
	res, err := p.CallTool(ctx, srv, "read_text_file", map[string]any{"path": "/etc/hostname"}, "")
	if err != nil {
		t.Fatalf("read outside the root: %v, want a tool error result", err)
	}
	if !res.IsError {
		t.Fatalf("read outside the root succeeded: %v", mcpclient.Render(res))
	}
}

func TestPoolToolResults(t *testing.T) {
	servers := map[string]mcpclient.Server{"stdio": stdioServer(t), "http": httpServer(t, testServer(0))}
	for name, srv := range servers {
		t.Run(name, func(t *testing.T) {
			p := newPool(t)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()

			res, err := p.CallTool(ctx, srv, "fail", nil, "")
			if err != nil || !res.IsError || mcpclient.Render(res) != "disk on fire" {
				t.Fatalf("fail: res=%+v err=%v, want an IsError result saying why", res, err)
			}
			res, err = p.CallTool(ctx, srv, "meta", nil, "intent-42.0")
			if err != nil || mcpclient.Render(res) != "intent-42.0" {
				t.Fatalf("meta: %v %v, want the idempotency key to reach the server", mcpclient.Render(res), err)
			}
			res, err = p.CallTool(ctx, srv, "weather", nil, "")
			if err != nil {
				t.Fatal(err)
			}
			if m, ok := mcpclient.Render(res).(map[string]any); !ok || m["conditions"] != "sunny" {
				t.Fatalf("weather rendered %#v, want the structured content", mcpclient.Render(res))
			}
			_, err = p.CallTool(ctx, srv, "no-such-tool", nil, "")
			var pe *mcpclient.ProtocolError
			if !errors.As(err, &pe) {
				t.Fatalf("unknown tool: %v (%T), want a *ProtocolError", err, err)
			}
		})
	}
}

func TestPoolSharesOneSession(t *testing.T) {
	srv := stdioServer(t)
	p := newPool(t)
	var wg sync.WaitGroup
	pids := make([]string, 16)
	for i := range pids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			res, err := p.CallTool(ctx, srv, "pid", nil, "")
			if err != nil {
				t.Error(err)
				return
			}
			pids[i] = mcpclient.Render(res).(string)
		}()
	}
	wg.Wait()
	for _, pid := range pids {
		if pid != pids[0] {
			t.Fatalf("concurrent calls reached processes %v, want one", pids)
		}
	}
	if n := p.Sessions(); n != 1 {
		t.Fatalf("%d sessions, want 1", n)
	}
}

func TestPoolReconnectsAfterServerKilled(t *testing.T) {
	srv := stdioServer(t)
	p := newPool(t)
	first := callText(t, p, srv, "pid", nil)
	pid, err := strconv.Atoi(first)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The pool notices the exit and forgets the session.
	deadline := time.Now().Add(10 * time.Second)
	for p.Sessions() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the pool still holds the session of a killed server")
		}
		time.Sleep(10 * time.Millisecond)
	}
	second := callText(t, p, srv, "pid", nil)
	if second == first {
		t.Fatalf("call after the kill answered by the dead process %s", first)
	}
}

func TestPoolKilledMidCallIsTransport(t *testing.T) {
	srv := stdioServer(t)
	p := newPool(t)
	pid, _ := strconv.Atoi(callText(t, p, srv, "pid", nil))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := p.CallTool(ctx, srv, "sleep", map[string]any{"ms": 10000}, "")
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	_ = syscall.Kill(pid, syscall.SIGKILL)
	err := <-done
	if !mcpclient.IsTransport(err) {
		t.Fatalf("call whose server died: %v (%T), want a transport error", err, err)
	}
	if got := callText(t, p, srv, "pid", nil); got == strconv.Itoa(pid) {
		t.Fatal("answered by the dead process")
	}
}

func TestPoolTimeoutKeepsSession(t *testing.T) {
	srv := stdioServer(t)
	p := newPool(t)
	before := callText(t, p, srv, "pid", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := p.CallTool(ctx, srv, "sleep", map[string]any{"ms": 5000}, "")
	if !mcpclient.IsTransport(err) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow call: %v, want a transport error wrapping the deadline", err)
	}
	if after := callText(t, p, srv, "pid", nil); after != before {
		t.Fatalf("a timed-out call cost the session: pid %s → %s", before, after)
	}
}

func TestPoolUnreachable(t *testing.T) {
	tests := []struct {
		name string
		srv  mcpclient.Server
	}{
		{"closed port", mcpclient.Server{URL: "http://127.0.0.1:1/mcp"}},
		{"no such command", mcpclient.Server{Command: []string{"/nonexistent/mcp-server"}}},
		{"server exits at once", mcpclient.Server{Command: []string{"/bin/sh", "-c", "echo cannot open database >&2; exit 3"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newPool(t)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err := p.CallTool(ctx, tc.srv, "x", nil, "")
			if !mcpclient.IsTransport(err) {
				t.Fatalf("%v (%T), want a transport error", err, err)
			}
			if tc.name == "server exits at once" && !strings.Contains(err.Error(), "cannot open database") {
				t.Fatalf("%v: want the server's stderr in the message", err)
			}
		})
	}
}

func TestListToolsAllPages(t *testing.T) {
	s := testServer(2) // six tools, two per page
	for i := range 7 {
		s.AddTool(&mcp.Tool{Name: fmt.Sprintf("extra-%d", i), InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
	}
	srv := httpServer(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	tools, err := mcpclient.ListTools(ctx, srv)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 13 {
		t.Fatalf("%d tools, want 13 across 7 pages", len(tools))
	}
}

func TestServerCheck(t *testing.T) {
	tests := []struct {
		srv mcpclient.Server
		ok  bool
	}{
		{mcpclient.Server{Command: []string{"npx", "x"}}, true},
		{mcpclient.Server{URL: "http://127.0.0.1:8080/mcp"}, true},
		{mcpclient.Server{}, false},
		{mcpclient.Server{Command: []string{"x"}, URL: "http://h/mcp"}, false},
		{mcpclient.Server{Command: []string{" "}}, false},
		{mcpclient.Server{Command: []string{"x"}, Dir: "relative"}, false},
		{mcpclient.Server{URL: "ftp://h/x"}, false},
		{mcpclient.Server{URL: "http:///nohost"}, false},
	}
	for _, tc := range tests {
		if err := tc.srv.Check(); (err == nil) != tc.ok {
			t.Errorf("Check(%+v) = %v, want ok=%v", tc.srv, err, tc.ok)
		}
	}
}

// A stdio server gets PATH, HOME, LANG, LC_ALL, TZ and what its Env lists,
// nothing else of the worker's environment.
func TestStdioServerEnvironment(t *testing.T) {
	t.Setenv("MCPCLIENT_SECRET", "s3cret")
	t.Setenv("MCPCLIENT_SHARED", "shared-value")
	base := stdioServer(t)
	withEnv := base
	withEnv.Env = append(append([]string{}, base.Env...), "MCPCLIENT_SHARED", "MCPCLIENT_FIXED=fixed")
	p := newPool(t)
	tests := []struct {
		srv  mcpclient.Server
		name string
		want string
	}{
		{base, "MCPCLIENT_SECRET", "<unset>"},
		{base, "MCPCLIENT_SHARED", "<unset>"},
		{base, "PATH", os.Getenv("PATH")},
		{withEnv, "MCPCLIENT_SHARED", "shared-value"},
		{withEnv, "MCPCLIENT_FIXED", "fixed"},
		{withEnv, "MCPCLIENT_SECRET", "<unset>"},
	}
	for _, tc := range tests {
		if got := callText(t, p, tc.srv, "getenv", map[string]any{"name": tc.name}); got != tc.want {
			t.Errorf("%s with env %v: %q, want %q", tc.name, tc.srv.Env, got, tc.want)
		}
	}
	if n := p.Sessions(); n != 2 {
		t.Fatalf("%d sessions, want one per environment (2)", n)
	}
}

func TestServerOfHeaders(t *testing.T) {
	t.Setenv("MCPCLIENT_TOKEN", "tok-123")
	tests := []struct {
		name    string
		x       schemas.Executor
		want    string
		wantErr string
	}{
		{"listed variable", schemas.Executor{URL: "http://h/mcp", Env: []string{"MCPCLIENT_TOKEN"}, Headers: map[string]string{"Authorization": "Bearer {env.MCPCLIENT_TOKEN}"}}, "Bearer tok-123", ""},
		{"fixed value", schemas.Executor{URL: "http://h/mcp", Env: []string{"K=v1"}, Headers: map[string]string{"Authorization": "Key {env.K}"}}, "Key v1", ""},
		{"plain header", schemas.Executor{URL: "http://h/mcp", Headers: map[string]string{"Authorization": "Bearer literal"}}, "Bearer literal", ""},
		{"unlisted variable", schemas.Executor{URL: "http://h/mcp", Headers: map[string]string{"Authorization": "Bearer {env.MCPCLIENT_TOKEN}"}}, "", "does not list"},
		{"unset variable", schemas.Executor{URL: "http://h/mcp", Env: []string{"MCPCLIENT_NOPE"}, Headers: map[string]string{"X": "{env.MCPCLIENT_NOPE}"}}, "", "not set on this worker"},
		{"unclosed", schemas.Executor{URL: "http://h/mcp", Headers: map[string]string{"X": "{env.A"}}, "", "unclosed"},
		{"newline", schemas.Executor{URL: "http://h/mcp", Env: []string{"A=x\ny"}, Headers: map[string]string{"X": "{env.A}"}}, "", "CR, LF"},
		{"headers on stdio", schemas.Executor{Command: []string{"x"}, Headers: map[string]string{"X": "y"}}, "", "not by a command"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := mcpclient.ServerOf(&tc.x)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, v := range s.Headers {
				got = v
			}
			if got != tc.want || strings.Contains(s.String(), "tok-123") {
				t.Fatalf("header %q (server %s), want %q", got, s, tc.want)
			}
		})
	}
}

// A streamable HTTP server that wants a bearer token gets it on every
// request of the session.
func TestPoolSendsHeaders(t *testing.T) {
	inner := httpServer(t, testServer(0))
	guard := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-123" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		proxy(w, r, inner.URL)
	}))
	t.Cleanup(func() { guard.CloseClientConnections(); guard.Close() })
	p := newPool(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := p.CallTool(ctx, mcpclient.Server{URL: guard.URL}, "pid", nil, ""); !mcpclient.IsTransport(err) {
		t.Fatalf("without the token: %v, want a transport error (401)", err)
	}
	srv := mcpclient.Server{URL: guard.URL, Headers: map[string]string{"Authorization": "Bearer tok-123"}}
	if got := callText(t, p, srv, "pid", nil); got == "" {
		t.Fatal("no answer with the token")
	}
}
