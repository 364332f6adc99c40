package mcpimport_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/mcpclient"
	"github.com/toolyard/toolyard/workers/mcpclient/mcptest"
	"github.com/toolyard/toolyard/workers/mcpimport"
	"github.com/toolyard/toolyard/workers/registry"
)

func openStore(t *testing.T) *registry.Store {
	t.Helper()
	env := pipelinetest.Start(t)
	store, err := registry.OpenStore(context.Background(), env.JS)
	if err != nil {
		t.Fatal(err)
	}
	return store
}

func ids(ms []schemas.Manifest, prefix string) []string {
	var out []string
	for _, m := range ms {
		if strings.HasPrefix(m.ID, prefix) {
			out = append(out, m.ID)
		}
	}
	return out
}

// The real reference server: every tool becomes a valid manifest that
// calls it.
func TestSyncServerEverything(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv := mcpclient.Server{Command: []string{mcptest.Bin(t, mcptest.Everything)}}
	tools, err := mcpclient.ListTools(ctx, srv)
	if err != nil {
		t.Fatal(err)
	}
	store := openStore(t)
	src := mcpimport.Source{Name: "everything", Server: srv, Timeout: 20 * time.Second}
	rep, err := mcpimport.Sync(ctx, store, src, tools, mcpimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Added) != len(tools) || len(rep.Skipped) != 0 {
		t.Fatalf("report %v for %d tools", rep, len(tools))
	}
	all, err := store.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var echo *schemas.Manifest
	for i, m := range all {
		if m.ID == "everything/echo" {
			echo = &all[i]
		}
	}
	if echo == nil {
		t.Fatalf("no everything/echo in %v", ids(all, ""))
	}
	x := echo.Executor
	if x.Kind != schemas.ExecMCP || x.Tool != "echo" || !slices.Equal(x.Command, srv.Command) || echo.Description != "Echoes back the input string" ||
		!strings.Contains(string(echo.Parameters), `"message"`) || echo.Server != "everything" {
		t.Fatalf("everything/echo = %+v / executor %+v", echo, x)
	}
	// Again: nothing changes.
	rep, err = mcpimport.Sync(ctx, store, src, tools, mcpimport.Options{})
	if err != nil || len(rep.Unchanged) != len(tools) || len(rep.Added)+len(rep.Replaced)+len(rep.Removed) != 0 {
		t.Fatalf("second sync: %v, %v", rep, err)
	}
}

func TestSyncFollowsTheServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	add := func(name, desc string) {
		s.AddTool(&mcp.Tool{Name: name, Description: desc, InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
	}
	add("alpha", "First tool")
	add("beta", "Second tool")
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer hs.Close()
	srv := mcpclient.Server{URL: hs.URL}
	store := openStore(t)
	// A tool of the same namespace from elsewhere, which no sync may touch.
	if _, err := store.Import(ctx, []schemas.Manifest{{ID: "svc/manual", Description: "hand made"}}, false); err != nil {
		t.Fatal(err)
	}
	src := mcpimport.Source{Name: "svc", Server: srv}
	sync := func() mcpimport.Report {
		t.Helper()
		tools, err := mcpclient.ListTools(ctx, srv)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := mcpimport.Sync(ctx, store, src, tools, mcpimport.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	registered := func() []string {
		all, err := store.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return ids(all, "svc/")
	}
	sync()
	if got := registered(); !slices.Equal(got, []string{"svc/alpha", "svc/beta", "svc/manual"}) {
		t.Fatalf("after the first sync: %v", got)
	}
	s.RemoveTools("alpha")
	add("beta", "Second tool, now better described")
	add("gamma", "Third tool")
	rep := sync()
	if !slices.Equal(rep.Removed, []string{"svc/alpha"}) || !slices.Equal(rep.Replaced, []string{"svc/beta"}) || !slices.Equal(rep.Added, []string{"svc/gamma"}) {
		t.Fatalf("second sync: %v", rep)
	}
	if got := registered(); !slices.Equal(got, []string{"svc/beta", "svc/gamma", "svc/manual"}) {
		t.Fatalf("after the second sync: %v", got)
	}

	// The server now has a tool whose id a foreign tool holds: refused whole.
	add("manual", "clash")
	tools, err := mcpclient.ListTools(ctx, srv)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mcpimport.Sync(ctx, store, src, tools, mcpimport.Options{}); !errors.Is(err, registry.ErrConflict) {
		t.Fatalf("clash: %v, want ErrConflict", err)
	}
	if rep, err := mcpimport.Sync(ctx, store, src, tools, mcpimport.Options{Replace: true}); err != nil || !slices.Equal(rep.Replaced, []string{"svc/manual"}) {
		t.Fatalf("clash with replace: %v %v", rep, err)
	}
}

func TestSourceManifest(t *testing.T) {
	src := mcpimport.Source{Name: "n", Server: mcpclient.Server{URL: "http://127.0.0.1:9/mcp"}}
	tests := []struct {
		name    string
		tool    *mcp.Tool
		wantErr string
		check   func(schemas.Manifest) bool
	}{
		{"description from title", &mcp.Tool{Name: "t", Title: "Do The Thing", InputSchema: map[string]any{"type": "object"}}, "",
			func(m schemas.Manifest) bool { return m.Description == "Do The Thing" }},
		{"no description at all", &mcp.Tool{Name: "t", InputSchema: map[string]any{"type": "object"}}, "",
			func(m schemas.Manifest) bool { return strings.Contains(m.Description, "Tool t of the MCP server n") }},
		{"draft-07 schema", &mcp.Tool{Name: "t", Description: "d", InputSchema: map[string]any{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": map[string]any{"x": map[string]any{"type": "number"}}}}, "",
			func(m schemas.Manifest) bool { return strings.Contains(string(m.Parameters), `"x"`) }},
		{"schema not an object", &mcp.Tool{Name: "t", Description: "d", InputSchema: map[string]any{"type": "string"}}, "n/t", nil},
		{"broken schema", &mcp.Tool{Name: "t", Description: "d", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "nope"}}}}, "not a valid JSON Schema", nil},
		{"no name", &mcp.Tool{Description: "d"}, "without a name", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := src.Manifest(tc.tool)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !tc.check(m) {
				t.Fatalf("%+v, %v", m, err)
			}
		})
	}
	for _, bad := range []string{"", "a/b", "two words"} {
		if err := (mcpimport.Source{Name: bad, Server: src.Server}).Check(); err == nil {
			t.Errorf("name %q accepted", bad)
		}
	}
}

// Header templates are stored as written: the secret stays in the worker's
// environment, out of the registry.
func TestSourceHeadersStayTemplates(t *testing.T) {
	t.Setenv("MCPIMPORT_TOKEN", "very-secret")
	src := mcpimport.Source{Name: "gh", Server: mcpclient.Server{URL: "http://127.0.0.1:9/mcp", Env: []string{"MCPIMPORT_TOKEN"}},
		Headers: map[string]string{"Authorization": "Bearer {env.MCPIMPORT_TOKEN}"}}
	m, err := src.Manifest(&mcp.Tool{Name: "t", Description: "d", InputSchema: map[string]any{"type": "object"}})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(m)
	if strings.Contains(string(raw), "very-secret") || m.Executor.Headers["Authorization"] != "Bearer {env.MCPIMPORT_TOKEN}" {
		t.Fatalf("manifest %s", raw)
	}
	srv, err := src.Connect()
	if err != nil || srv.Headers["Authorization"] != "Bearer very-secret" {
		t.Fatalf("connect with %v, %v", srv.Headers, err)
	}
}
