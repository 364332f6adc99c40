package mcpclient_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolyard/toolyard/workers/mcpclient"
)

// The test binary doubles as a stdio MCP server (a real OS process speaking
// MCP with the SDK), started by the tests with this variable set.
const envServe = "MCPCLIENT_TEST_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(envServe) == "stdio" {
		if err := testServer(0).Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "test server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// testServer has tools that show what the client sent and who answered.
func testServer(pageSize int) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "mcpclient-test", Version: "1"}, &mcp.ServerOptions{PageSize: pageSize})
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	obj := map[string]any{"type": "object"}
	s.AddTool(&mcp.Tool{Name: "pid", Description: "The server's process id", InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(strconv.Itoa(os.Getpid())), nil
		})
	s.AddTool(&mcp.Tool{Name: "fail", Description: "Always reports a tool error", InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "disk on fire"}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "meta", Description: "Echoes the idempotency key of the request", InputSchema: obj},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			key, _ := req.Params.Meta[mcpclient.MetaIdempotencyKey].(string)
			return text(key), nil
		})
	s.AddTool(&mcp.Tool{Name: "getenv", Description: "The server's value of an environment variable", InputSchema: map[string]any{
		"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct{ Name string }
			_ = jsonUnmarshal(req.Params.Arguments, &args)
			v, ok := os.LookupEnv(args.Name)
			if !ok {
				v = "<unset>"
			}
			return text(v), nil
		})
	s.AddTool(&mcp.Tool{Name: "weather", Description: "Structured weather", InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{StructuredContent: map[string]any{"temperature": 21.5, "conditions": "sunny"}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "sleep", Description: "Sleeps for ms milliseconds", InputSchema: map[string]any{
		"type": "object", "properties": map[string]any{"ms": map[string]any{"type": "number"}}}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct{ MS float64 }
			_ = jsonUnmarshal(req.Params.Arguments, &args)
			select {
			case <-time.After(time.Duration(args.MS) * time.Millisecond):
			case <-ctx.Done():
			}
			return text("slept"), nil
		})
	return s
}

// stdioServer is this test binary run as a stdio MCP server.
func stdioServer(t testing.TB) mcpclient.Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return mcpclient.Server{Command: []string{exe}, Env: []string{envServe + "=stdio"}}
}

// httpServer serves s over streamable HTTP on loopback until the test ends.
func httpServer(t testing.TB, s *mcp.Server) mcpclient.Server {
	t.Helper()
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*httptestRequest) *mcp.Server { return s }, nil))
	// Close waits for open requests, and a client's standalone SSE stream is
	// one: end the connections first.
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	return mcpclient.Server{URL: ts.URL}
}

func stdioServerB(b *testing.B) mcpclient.Server { return stdioServer(b) }

func httpServerB(b *testing.B) mcpclient.Server { return httpServer(b, testServer(0)) }
