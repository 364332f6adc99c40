package execute_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/execute"
	"github.com/toolyard/toolyard/workers/mcpclient"
	"github.com/toolyard/toolyard/workers/mcpclient/mcptest"
	"github.com/toolyard/toolyard/workers/registry"
)

func mcpTool(id, tool string, params string, x schemas.Executor) schemas.Manifest {
	x.Kind, x.Tool = schemas.ExecMCP, tool
	m := schemas.Manifest{ID: id, Name: tool, Description: "MCP tool " + tool, Executor: &x}
	if params != "" {
		m.Parameters = json.RawMessage(params)
	}
	return m
}

func mcpExecutor(t *testing.T, tools ...schemas.Manifest) *execute.Executor {
	t.Helper()
	pool := mcpclient.NewPool()
	t.Cleanup(func() { _ = pool.Close() })
	return execute.New(registry.New(tools...), nil, execute.WithMCP(pool), execute.WithGrants(execute.ClassNetwork), execute.WithPathRoots("/"))
}

func execCall(t *testing.T, e *execute.Executor, id string, params map[string]any) (schemas.ToolOutput, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return e.Execute(ctx, schemas.ToolCall{V: schemas.Version, IntentID: "i-1.0", SessionID: "s", MetaTool: schemas.MetaExecute, ToolID: id, Parameters: params})
}

func TestMCPExecutorRealServers(t *testing.T) {
	everything := schemas.Executor{Command: []string{mcptest.Bin(t, mcptest.Everything)}}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "todo.txt"), []byte("buy milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsrv := schemas.Executor{Command: []string{mcptest.Bin(t, mcptest.Filesystem), root}, Timeout: schemas.Duration(20 * time.Second)}
	str := `{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`
	sum := `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`
	path := `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`
	e := mcpExecutor(t,
		mcpTool("everything/echo", "echo", str, everything),
		mcpTool("everything/get-sum", "get-sum", sum, everything),
		mcpTool("files/read_text_file", "read_text_file", path, fsrv),
		mcpTool("files/list_directory", "list_directory", path, fsrv),
		schemas.Manifest{ID: "my/say", Description: "say it", Parameters: json.RawMessage(str), Executor: &schemas.Executor{Kind: schemas.ExecTool, Tool: "everything/echo"}},
	)
	tests := []struct {
		name, tool string
		params     map[string]any
		want       string
	}{
		{"echo", "everything/echo", map[string]any{"message": "hello world"}, "Echo: hello world"},
		{"sum", "everything/get-sum", map[string]any{"a": 2, "b": 3}, "5"},
		{"sum of strings (coerced by the schema)", "everything/get-sum", map[string]any{"a": "40", "b": "2"}, "42"},
		{"delegation to an mcp tool", "my/say", map[string]any{"message": "via a chain"}, "Echo: via a chain"},
		{"list a directory", "files/list_directory", map[string]any{"path": root}, "[FILE] todo.txt"},
		{"read a file", "files/read_text_file", map[string]any{"path": filepath.Join(root, "todo.txt")}, "buy milk"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := execCall(t, e, tc.tool, tc.params)
			if err != nil {
				t.Fatal(err)
			}
			if s, _ := out.Content.(string); !strings.Contains(s, tc.want) {
				t.Fatalf("content %#v, want it to contain %q", out.Content, tc.want)
			}
			if out.DurationMS <= 0 {
				t.Fatalf("duration %v", out.DurationMS)
			}
		})
	}

	t.Run("tool error is permanent", func(t *testing.T) {
		out, err := execCall(t, e, "files/read_text_file", map[string]any{"path": "/etc/passwd"})
		var te *execute.ToolError
		if !errors.As(err, &te) || execute.IsTransient(err) {
			t.Fatalf("read outside the root: %v (%T), want a permanent *ToolError", err, err)
		}
		if !strings.Contains(err.Error(), "files/read_text_file reported an error") || out.Content == nil {
			t.Fatalf("error %q / output %#v: want the server's reason", err, out.Content)
		}
	})
	t.Run("schema refuses before the server is asked", func(t *testing.T) {
		_, err := execCall(t, e, "everything/get-sum", map[string]any{"a": "two"})
		if !errors.Is(err, execute.ErrInvalidParameters) {
			t.Fatalf("%v, want ErrInvalidParameters", err)
		}
	})
}

func TestMCPExecutorFailures(t *testing.T) {
	everything := mcptest.Bin(t, mcptest.Everything)
	e := mcpExecutor(t,
		mcpTool("gone/echo", "echo", "", schemas.Executor{Command: []string{"/nonexistent/mcp-server"}}),
		mcpTool("down/echo", "echo", "", schemas.Executor{URL: "http://127.0.0.1:1/mcp"}),
		mcpTool("everything/stale", "no-longer-there", "", schemas.Executor{Command: []string{everything}}),
		mcpTool("everything/slow", "trigger-long-running-operation", "", schemas.Executor{Command: []string{everything}, Timeout: schemas.Duration(300 * time.Millisecond)}),
	)
	t.Run("command not installed", func(t *testing.T) {
		_, err := execCall(t, e, "gone/echo", nil)
		if !errors.Is(err, execute.ErrUnsupported) {
			t.Fatalf("%v, want ErrUnsupported", err)
		}
	})
	t.Run("server down is transient", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, err := e.Execute(ctx, schemas.ToolCall{IntentID: "i", SessionID: "s", MetaTool: schemas.MetaExecute, ToolID: "down/echo"})
		if !execute.IsTransient(err) {
			t.Fatalf("%v, want a transient error", err)
		}
	})
	t.Run("tool the server does not have", func(t *testing.T) {
		_, err := execCall(t, e, "everything/stale", nil)
		var te *execute.ToolError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), "not found") {
			t.Fatalf("%v, want the server's tool error saying the tool is not found", err)
		}
	})
	t.Run("timeout is transient", func(t *testing.T) {
		// The worker's deadline ends the retries of the timed-out calls.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, err := e.Execute(ctx, schemas.ToolCall{IntentID: "i", SessionID: "s", MetaTool: schemas.MetaExecute, ToolID: "everything/slow",
			Parameters: map[string]any{"duration": 10, "steps": 2}})
		if !execute.IsTransient(err) {
			t.Fatalf("%v, want a transient error", err)
		}
	})
}

// The call's idempotency key reaches the server in the request's _meta: the
// same for every attempt of a call, another for another call.
func TestMCPExecutorSendsIdempotencyKey(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "keys", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "key", Description: "echoes the idempotency key", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			k, _ := req.Params.Meta[mcpclient.MetaIdempotencyKey].(string)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: k}}}, nil
		})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })
	e := mcpExecutor(t, mcpTool("keys/key", "key", "", schemas.Executor{URL: hs.URL}))
	key := func(intent string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		call := schemas.ToolCall{IntentID: intent, SessionID: "s", MetaTool: schemas.MetaExecute, ToolID: "keys/key"}
		out, err := e.Execute(ctx, call)
		if err != nil {
			t.Fatal(err)
		}
		if want := execute.CallIdempotencyKey(call); out.Content != want || want == "" {
			t.Fatalf("server saw key %v, want %q", out.Content, want)
		}
		return out.Content.(string)
	}
	if a, b, c := key("m1.0"), key("m1.0"), key("m2.0"); a != b || a == c {
		t.Fatalf("keys %q %q %q: want equal for one call, different for another", a, b, c)
	}
}
