package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolyard/toolyard/workers/mcpclient/mcptest"
)

// sessionHeader names the Toolyard session of an HTTP MCP client.
type sessionHeader struct {
	session string
	base    http.RoundTripper
}

func (h sessionHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Toolyard-Session", h.session)
	return h.base.RoundTrip(r)
}

func callText(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

func listNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var names []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// The facade driven by real MCP clients: the Go SDK's over streamable HTTP,
// and the inspector's CLI over stdio.
func TestMCPGateway(t *testing.T) {
	everything := mcptest.Bin(t, mcptest.Everything)
	inspector := mcptest.Bin(t, mcptest.Inspector)
	_, url := startUp(t, "")
	cli(t, 0, "tools", "import", "mcp", "--nats", url, "--name", "everything", "--", everything)

	httpPort := freePort(t)
	gw := startProcess(t, "mcp", "serve", "--nats", url, "--http", fmt.Sprintf("127.0.0.1:%d", httpPort))
	gw.WaitOutput(t, "MCP gateway listening", 30*time.Second)

	changed := make(chan struct{}, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "gateway-test", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   fmt.Sprintf("http://127.0.0.1:%d/mcp", httpPort),
		HTTPClient: &http.Client{Transport: sessionHeader{"gw-http", http.DefaultTransport}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	waitChanged := func(what string) {
		t.Helper()
		select {
		case <-changed:
		case <-time.After(20 * time.Second):
			t.Fatalf("no notifications/tools/list_changed after %s", what)
		}
	}

	// MCP clients are guided in MCP terms: find_tools, then the tool.
	if ins := cs.InitializeResult().Instructions; strings.Contains(ins, "[TOOL") || !strings.Contains(ins, "call find_tools") {
		t.Errorf("server instructions: %q", ins)
	}

	// A new session: the meta-tools only, not the registry's 40-odd tools.
	meta := []string{"activate", "execute", "find_tools", "resolve_intent"}
	if got := listNames(t, cs); !slices.Equal(got, meta) {
		t.Fatalf("tools/list of a new session: %v, want %v", got, meta)
	}

	out, isErr := callText(t, cs, "find_tools", map[string]any{"query": "echo back a message", "k": 3})
	if isErr || !strings.Contains(out, "everything/echo") || !strings.Contains(out, "everything.echo") || strings.Contains(out, "[TOOL") {
		t.Fatalf("find_tools: want the match and the name to call it by, in MCP terms: %s", out)
	}
	waitChanged("find_tools")
	names := listNames(t, cs)
	if !slices.Contains(names, "everything.echo") || len(names) > len(meta)+3 {
		t.Fatalf("after find_tools: %v", names)
	}
	if out, isErr := callText(t, cs, "everything.echo", map[string]any{"message": "through the gateway"}); isErr || out != "Echo: through the gateway" {
		t.Fatalf("everything.echo: %q (error %v)", out, isErr)
	}

	if out, isErr := callText(t, cs, "activate", map[string]any{"id": "system/uptime"}); isErr || !strings.Contains(out, "Call system.uptime") || strings.Contains(out, "[TOOL") {
		t.Fatalf("activate: want the name to call it by, in MCP terms: %s", out)
	}
	waitChanged("activate")
	if names := listNames(t, cs); !slices.Contains(names, "system.uptime") {
		t.Fatalf("after activate: %v", names)
	}
	if out, isErr := callText(t, cs, "system.uptime", nil); isErr || !strings.Contains(out, "load average") {
		t.Fatalf("system.uptime: %q", out)
	}

	if out, isErr := callText(t, cs, "resolve_intent", map[string]any{"text": "echo hello world"}); isErr || out != "Echo: hello world" {
		t.Fatalf("resolve_intent: %q (error %v)", out, isErr)
	}
	if out, isErr := callText(t, cs, "execute", map[string]any{"tool_id": "everything/get-sum", "arguments": map[string]any{"a": 2, "b": 3}}); isErr || !strings.Contains(out, "The sum of 2 and 3 is 5") {
		t.Fatalf("execute get-sum: %q (error %v)", out, isErr)
	}
	if out, isErr := callText(t, cs, "execute", map[string]any{"tool_id": "no/such-tool"}); !isErr || !strings.Contains(out, "no/such-tool") {
		t.Fatalf("execute of an unknown tool: %q (error %v), want an error naming it", out, isErr)
	}

	// The inspector's CLI, over stdio, on the same Toolyard session: it sees
	// the set the HTTP client built. This gateway connects as the agent of
	// its sessions only (the inspector passes its child no TOOLYARD_DATA).
	agent := filepath.Join(t.TempDir(), "gw.creds")
	cli(t, 0, "creds", "agent", "--session", "gw-http", "--session", "gw-cli", "--ttl", "10m", "--out", agent)
	cmd := exec.CommandContext(ctx, inspector, "--cli", binary, "mcp", "serve", "--stdio", "--nats", url, "--creds", agent, "--session", "gw-http", "--method", "tools/list")
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("inspector tools/list: %v\n%s", err, raw)
	}
	var listed struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal(raw, &listed); err != nil {
		t.Fatalf("inspector output: %v\n%s", err, raw)
	}
	var got []string
	for _, tl := range listed.Tools {
		got = append(got, tl.Name)
	}
	for _, want := range append(meta, "everything.echo", "system.uptime") {
		if !slices.Contains(got, want) {
			t.Errorf("inspector tools/list %v lacks %s", got, want)
		}
	}
	cmd = exec.CommandContext(ctx, inspector, "--cli", binary, "mcp", "serve", "--stdio", "--nats", url, "--creds", agent, "--session", "gw-cli",
		"--method", "tools/call", "--tool-name", "resolve_intent", "--tool-arg", "text=echo hello from the inspector")
	raw, err = cmd.Output()
	if err != nil || !strings.Contains(string(raw), "Echo: hello from the inspector") {
		t.Fatalf("inspector resolve_intent: %v\n%s", err, raw)
	}
}

// The MCP conformance suite's server scenarios that apply to a gateway. The
// others call fixture tools, resources and prompts of the suite's reference
// server (test_simple_text, test://static-text, …), which a gateway in front
// of a registry does not have; they fail with "unknown tool".
var conformanceScenarios = []string{
	"server-initialize", "ping", "logging-set-level", "tools-list",
	"server-sse-multiple-streams", "resources-list", "prompts-list",
}

func TestMCPGatewayConformance(t *testing.T) {
	suite := mcptest.Bin(t, mcptest.Conformance)
	_, url := startUp(t, "")
	httpPort := freePort(t)
	gw := startProcess(t, "mcp", "serve", "--nats", url, "--http", fmt.Sprintf("127.0.0.1:%d", httpPort))
	gw.WaitOutput(t, "MCP gateway listening", 30*time.Second)
	for _, sc := range conformanceScenarios {
		t.Run(sc, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, suite, "server", "--url", fmt.Sprintf("http://127.0.0.1:%d/mcp", httpPort), "--scenario", sc)
			cmd.Dir = t.TempDir() // it writes its results/ there
			out, err := cmd.CombinedOutput()
			if err != nil || !regexp.MustCompile(`(^|[^0-9])0 failed`).Match(out) {
				t.Fatalf("conformance %s: %v\n%s", sc, err, out)
			}
		})
	}
}

// The SDK's HTTP handler asks the gateway for a server on every request
// (to read its protocol versions) and keeps only those that start a
// session. A server nobody uses must hold nothing: each used to watch its
// session's set until the process ended, one JetStream consumer more per
// HTTP request. The gateway now follows a set with a plain subscription
// to its key's subject (an agent credential may not create the push
// consumer a KV watch is): no consumer at all, and a write by someone
// else still reaches the client as notifications/tools/list_changed.
func TestMCPGatewayHoldsOneWatchPerClient(t *testing.T) {
	_, url := startUp(t, "")
	httpPort := freePort(t)
	gw := startProcess(t, "mcp", "serve", "--nats", url, "--http", fmt.Sprintf("127.0.0.1:%d", httpPort))
	gw.WaitOutput(t, "MCP gateway listening", 30*time.Second)

	js := connectJS(t, url)
	consumers := func() int {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s, err := js.Stream(ctx, "KV_sessions")
		if err != nil {
			t.Fatal(err)
		}
		info, err := s.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return info.State.Consumers
	}
	before := consumers()
	// A session with a tool already active: a client's first tools/list
	// shows it, although the server lists nothing before its first request.
	cli(t, 0, "publish", "--nats", url, "--session", "gw-watch", "--wait", "--timeout", "30s", "[TOOL: activate system/uptime]")

	changed := make(chan struct{}, 64)
	client := mcp.NewClient(&mcp.Implementation{Name: "watch-test", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   fmt.Sprintf("http://127.0.0.1:%d/mcp", httpPort),
		HTTPClient: &http.Client{Transport: sessionHeader{"gw-watch", http.DefaultTransport}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if names := listNames(t, cs); !slices.Contains(names, "system.uptime") {
		t.Errorf("the first tools/list of a session with system/uptime active: %v", names)
	}
	for range 15 {
		listNames(t, cs)
	}
	callText(t, cs, "find_tools", map[string]any{"query": "how much disk space is free"})
	time.Sleep(500 * time.Millisecond) // any stray consumer has been created by now
	if after := consumers(); after != before {
		t.Errorf("one client made 17 requests and the gateway holds %d consumers of the sessions bucket (%d before it connected); want none", after-before, before)
	}
	if names := listNames(t, cs); !slices.Contains(names, "system.disk_free") {
		t.Errorf("the session's set after find_tools: %v", names)
	}
	// Someone else changes the set: the client is told.
	for len(changed) > 0 {
		<-changed
	}
	cli(t, 0, "publish", "--nats", url, "--session", "gw-watch", "--wait", "--timeout", "30s", "[TOOL: activate files/checksum]")
	select {
	case <-changed:
	case <-time.After(20 * time.Second):
		t.Fatal("no notifications/tools/list_changed after another client activated a tool for the session")
	}
	if names := listNames(t, cs); !slices.Contains(names, "files.checksum") {
		t.Errorf("the session's set after another client's activation: %v", names)
	}
}

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// The HTTP gateway acts with its own NATS credential for whoever reaches
// it: on an address other machines reach it refuses to start without
// --tokens, and with them a real MCP client works only with its token and
// for its sessions.
func TestMCPGatewayHTTPNeedsTokensBeyondLoopback(t *testing.T) {
	_, url := startUp(t, "")
	out := cli(t, 1, "mcp", "serve", "--nats", url, "--http", fmt.Sprintf("0.0.0.0:%d", freePort(t)))
	if !strings.Contains(out, "--tokens FILE") {
		t.Errorf("a gateway on every interface without tokens: %s", out)
	}
	tokA, tokB := strings.Repeat("a1", 20), strings.Repeat("b2", 20)
	tokens := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(tokens, []byte(tokA+" team-a-*\n"+tokB+" team-b\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	httpPort := freePort(t)
	gw := startProcess(t, "mcp", "serve", "--nats", url, "--http", fmt.Sprintf("0.0.0.0:%d", httpPort), "--tokens", tokens)
	gw.WaitOutput(t, "MCP gateway listening", 30*time.Second)
	endpoint := fmt.Sprintf("http://127.0.0.1:%d/mcp", httpPort)

	connect := func(rt http.RoundTripper) (*mcp.ClientSession, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		client := mcp.NewClient(&mcp.Implementation{Name: "token-test", Version: "1"}, nil)
		return client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: rt}}, nil)
	}
	cs, err := connect(bearer{tokA, sessionHeader{"team-a-1", http.DefaultTransport}})
	if err != nil {
		t.Fatalf("a client with its token, for its session: %v", err)
	}
	defer cs.Close()
	if names := listNames(t, cs); !slices.Contains(names, "find_tools") {
		t.Errorf("tools/list: %v", names)
	}
	for name, rt := range map[string]http.RoundTripper{
		"no token":          sessionHeader{"team-a-1", http.DefaultTransport},
		"another's session": bearer{tokB, sessionHeader{"team-a-1", http.DefaultTransport}},
	} {
		if cs, err := connect(rt); err == nil {
			cs.Close()
			t.Errorf("%s: connected", name)
		}
	}
}
