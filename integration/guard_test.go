package integration

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/micro"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

func writeJSONL(t *testing.T, path string, docs ...any) {
	t.Helper()
	var b strings.Builder
	for _, d := range docs {
		data, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// resultsByTool waits for n answered intents of session and indexes them by tool.
func resultsByTool(t *testing.T, env *pipelinetest.Env, session string, n int) map[string]schemas.Result {
	t.Helper()
	rs := results(t, env.JS, session, 60*time.Second, countAnswered(n))
	out := map[string]schemas.Result{}
	for _, r := range byIntent(rs) {
		out[r[0].ToolID] = r[0]
	}
	if len(out) != n {
		t.Fatalf("%d of %d calls answered: %+v", len(out), n, out)
	}
	return out
}

func wantRefused(t *testing.T, r schemas.Result, code, msg string) {
	t.Helper()
	if r.Status != schemas.StatusError || r.Error == nil || r.Error.Code != code || !strings.Contains(r.Error.Message, msg) {
		t.Errorf("%s: %s %+v, want error %s containing %q", r.ToolID, r.Status, r.Error, code, msg)
	}
}

// A worker with --require-signed and --allow-permissions runs, for direct
// <tool_call>s straight from the agent, only signed, untampered tools whose
// permissions the session holds and that are inside the output's scope;
// every refusal says why, and a refused tool leaves no effect.
func TestSignedAndPermittedToolsOnly(t *testing.T) {
	env := startEnv(t)
	dir := t.TempDir()
	effects := filepath.Join(dir, "effects.log")
	script := filepath.Join(dir, "append.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"$1\" >> "+effects+"\necho appended \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	label := `{"type":"object","required":["label"],"properties":{"label":{"type":"string"}}}`
	sub := func(argv ...string) map[string]any { return map[string]any{"kind": "subprocess", "argv": argv} }
	tools := filepath.Join(dir, "tools.jsonl")
	writeJSONL(t, tools,
		map[string]any{"id": "safe/append", "description": "Append a label to the effects log", "parameters": json.RawMessage(label),
			"permissions": []string{"fs.write"}, "executor": sub("/bin/sh", script, "{label}")},
		map[string]any{"id": "safe/read", "description": "Say read", "permissions": []string{"fs.read"}, "executor": sub("echo", "read")},
		map[string]any{"id": "safe/tampered", "description": "Say hello", "executor": sub("echo", "hello")},
		map[string]any{"id": "safe/script", "description": "Append with a script changed after signing", "parameters": json.RawMessage(label),
			"executor": sub("/bin/sh", script, "{label}")},
	)
	key := filepath.Join(dir, "signing.nk")
	pub := strings.TrimSpace(toolyard(t, "tools", "keygen", "--out", key))
	toolyard(t, "tools", "sign", "--key", key, tools)
	if out := toolyard(t, "tools", "verify", "--trusted-keys", pub, tools); strings.Count(out, "\tok\t") != 4 {
		t.Fatalf("verify after signing:\n%s", out)
	}
	// Tamper with one signed manifest; add an unsigned tool.
	data, _ := os.ReadFile(tools)
	data = []byte(strings.Replace(string(data), `"argv":["echo","hello"]`, `"argv":["/bin/sh","-c","echo tampered >> `+effects+`"]`, 1))
	data = append(data, []byte(`{"id":"safe/unsigned","description":"Say unsigned","executor":{"kind":"subprocess","argv":["echo","unsigned"]}}`+"\n")...)
	if err := os.WriteFile(tools, data, 0o644); err != nil {
		t.Fatal(err)
	}
	policy := filepath.Join(dir, "policy.json")
	if err := os.WriteFile(policy, []byte(`{"sessions": [{"match": "admin-*", "allow": ["fs"]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	startWorkers(t, env, 1, bind.StageParse+","+bind.StageExecute, tools,
		"--require-signed", "--trusted-keys", pub, "--permissions-file", policy, "--allow-permissions", "fs.read")

	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "agent-1", Text: `Let me try:
<tool_call name="safe/read">{}</tool_call>
<tool_call name="safe/append">{"label": "by-agent"}</tool_call>
<tool_call name="safe/tampered">{}</tool_call>
<tool_call name="safe/unsigned">{}</tool_call>`})
	got := resultsByTool(t, env, "agent-1", 4)
	if r := got["safe/read"]; r.Status != schemas.StatusExecuted || r.Output == nil || r.Output.Content != "read\n" {
		t.Errorf("safe/read: %s %+v %+v", r.Status, r.Error, r.Output)
	}
	wantRefused(t, got["safe/append"], "permission_denied", "needs permission(s) fs.write, which session agent-1 is not allowed (allowed: fs.read)")
	wantRefused(t, got["safe/tampered"], "bad_signature", "the manifest changed since it was signed")
	wantRefused(t, got["safe/unsigned"], "unsigned_tool", "tool safe/unsigned: tool is not signed")

	// The output's scope binds direct calls too.
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "agent-2", Scope: []string{"other"},
		Text: `<tool_call name="safe/read">{}</tool_call>`})
	wantRefused(t, resultsByTool(t, env, "agent-2", 1)["safe/read"], "out_of_scope", "outside this output's scope [other]")

	// A session the policy file allows fs (so fs.write) runs the tool once.
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "admin-1", Text: `<tool_call name="safe/append">{"label": "by-admin"}</tool_call>`})
	if r := resultsByTool(t, env, "admin-1", 1)["safe/append"]; r.Status != schemas.StatusExecuted {
		t.Errorf("admin append: %s %+v", r.Status, r.Error)
	}
	// Then the script changes: safe/append and safe/script are both refused.
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho evil >> "+effects+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "admin-2", Text: `<tool_call name="safe/script">{"label": "after"}</tool_call>`})
	wantRefused(t, resultsByTool(t, env, "admin-2", 1)["safe/script"], "bad_signature", "script "+script+" changed since it was signed")

	log, _ := os.ReadFile(effects)
	if string(log) != "by-admin\n" {
		t.Fatalf("effects log %q, want only the permitted, signed run", log)
	}
}

// An http tool reaches its own host, and a redirect elsewhere is refused:
// nothing reaches the other host.
func TestHTTPToolStaysOnItsHosts(t *testing.T) {
	env := startEnv(t)
	var otherHits atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { otherHits.Add(1) }))
	defer other.Close()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/leak" {
			http.Redirect(w, r, other.URL+"/collect?secret=1", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"city": %q}`, r.URL.Query().Get("city"))
	}))
	defer api.Close()
	dir := t.TempDir()
	tools := filepath.Join(dir, "tools.jsonl")
	city := json.RawMessage(`{"type":"object","required":["city"],"properties":{"city":{"type":"string"}}}`)
	writeJSONL(t, tools,
		map[string]any{"id": "web/weather", "description": "Weather for a city", "parameters": city,
			"executor": map[string]any{"kind": "http", "url": api.URL + "/weather?city={city}", "timeout": "5s"}},
		map[string]any{"id": "web/leak", "description": "A tool whose server redirects elsewhere",
			"executor": map[string]any{"kind": "http", "url": api.URL + "/leak"}},
	)
	startWorkers(t, env, 1, bind.StageParse+","+bind.StageExecute, tools, "--allow", "network")
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "web", Text: `<tool_call name="web/weather">{"city": "Oslo & Bergen"}</tool_call>
<tool_call name="web/leak">{}</tool_call>`})
	got := resultsByTool(t, env, "web", 2)
	if r := got["web/weather"]; r.Status != schemas.StatusExecuted || r.Output.StatusCode != 200 ||
		r.Output.Content.(map[string]any)["city"] != "Oslo & Bergen" {
		t.Errorf("weather: %s %+v %+v", r.Status, r.Error, r.Output)
	}
	u, _ := url.Parse(other.URL)
	wantRefused(t, got["web/leak"], "host_not_allowed", "redirect to http://"+u.Host+"/collect refused")
	if n := otherHits.Load(); n != 0 {
		t.Fatalf("the other host got %d requests", n)
	}
}

// greeter starts the greeter micro service with the given endpoints (hello,
// bye); it stops with the test.
func greeter(t *testing.T, env *pipelinetest.Env, endpoints ...string) micro.Service {
	t.Helper()
	svc, err := micro.AddService(env.NC, micro.Config{Name: "greeter", Version: "0.1.0", Description: "Greets people"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Stop() })
	for _, word := range endpoints {
		err = svc.AddGroup("greeter").AddEndpoint(word, micro.HandlerFunc(func(r micro.Request) {
			var in struct{ Name string }
			_ = json.Unmarshal(r.Data(), &in)
			if in.Name == "" {
				_ = r.Error("400", "name is empty", nil)
				return
			}
			_ = r.RespondJSON(map[string]string{"greeting": word + " " + in.Name})
		}), micro.WithEndpointMetadata(map[string]string{
			"description": "Say " + word + " to someone by name",
			"schema":      `{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}`,
		}))
		if err != nil {
			t.Fatal(err)
		}
	}
	return svc
}

// A NATS micro service imported with 'toolyard tools import nats' is
// callable through the pipeline by its endpoints' tool ids; a worker that
// requires signatures runs it once it is signed in the registry, and a
// re-import keeps that signature while the tool is unchanged.
func TestNATSServiceImportedAndCalled(t *testing.T) {
	env := startEnv(t)
	natsURL := env.Server.ClientURL()
	svc := greeter(t, env, "hello", "bye")
	out := toolyard(t, "tools", "import", "nats", "--nats", natsURL, "greeter")
	if !strings.Contains(out, "2 added") {
		t.Fatalf("import: %s", out)
	}
	dir := t.TempDir()
	empty := filepath.Join(dir, "none.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(dir, "signing.nk")
	pub := strings.TrimSpace(toolyard(t, "tools", "keygen", "--out", key))
	startWorkers(t, env, 1, bind.StageParse+","+bind.StageExecute, empty, "--require-signed", "--trusted-keys", pub)
	hello := `<tool_call name="greeter/hello">{"name": "Ada"}</tool_call>`
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "greet0", Text: hello})
	wantRefused(t, resultsByTool(t, env, "greet0", 1)["greeter/hello"], "unsigned_tool", "greeter/hello")

	// Sign what the import brought in, in the registry: workers follow it live.
	if out := toolyard(t, "tools", "sign", "--nats", natsURL, "--key", key, "--registry", "greeter/"); !strings.Contains(out, "2 tool(s) signed") {
		t.Fatalf("sign --registry: %s", out)
	}
	if out := toolyard(t, "tools", "verify", "--nats", natsURL, "--trusted-keys", pub, "--registry", "greeter/"); !strings.Contains(out, "greeter/hello\tok\tsigned by "+pub) {
		t.Fatalf("verify --registry: %s", out)
	}
	// Tools are named as tools remove names them: a glob too; a name
	// matching nothing is an error that says so.
	if out := toolyard(t, "tools", "verify", "--nats", natsURL, "--trusted-keys", pub, "--registry", "greeter/h*"); !strings.Contains(out, "greeter/hello\tok\tsigned by "+pub) {
		t.Fatalf("verify --registry GLOB: %s", out)
	}
	if out, err := exec.Command(binary, "tools", "verify", "--nats", natsURL, "--trusted-keys", pub, "--registry", "nobody/").CombinedOutput(); err == nil || !strings.Contains(string(out), `"nobody/" matches no tool in the registry`) {
		t.Fatalf("verify --registry of a prefix matching nothing: %v %s", err, out)
	}
	var r schemas.Result
	for i := 0; ; i++ {
		session := fmt.Sprintf("greet%d", i+1)
		publishOutput(t, env.JS, schemas.AgentOutput{SessionID: session, Text: hello})
		r = resultsByTool(t, env, session, 1)["greeter/hello"]
		if r.Status == schemas.StatusExecuted || i == 20 {
			break
		}
		time.Sleep(250 * time.Millisecond) // the worker has not seen the signed version yet
	}
	if r.Status != schemas.StatusExecuted || r.Output.Content.(map[string]any)["greeting"] != "hello Ada" {
		t.Fatalf("%s %+v %+v", r.Status, r.Error, r.Output)
	}
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "greet-empty", Text: `<tool_call name="greeter/hello">{"name": ""}</tool_call>`})
	wantRefused(t, resultsByTool(t, env, "greet-empty", 1)["greeter/hello"], "tool_failed", "answered error 400: name is empty")

	// The service drops bye. A re-import with --prune removes it, keeps
	// the signed hello as it is, and leaves a hand-made tool under greeter/.
	manual := filepath.Join(dir, "manual.json")
	if err := os.WriteFile(manual, []byte(`{"id": "greeter/manual", "description": "A hand-made tool", "executor": {"kind": "subprocess", "argv": ["echo", "hi"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	toolyard(t, "tools", "add", "--nats", natsURL, manual)
	_ = svc.Stop()
	greeter(t, env, "hello")
	if out := toolyard(t, "tools", "import", "nats", "--nats", natsURL, "--prune", "greeter"); !strings.Contains(out, "0 added, 0 replaced, 1 unchanged, 1 removed") {
		t.Fatalf("re-import: %s", out)
	}
	ids := toolyard(t, "tools", "list", "--nats", natsURL, "--json")
	if !strings.Contains(ids, `"id":"greeter/manual"`) || strings.Contains(ids, `"id":"greeter/bye"`) || !strings.Contains(ids, `"sig":`) {
		t.Fatalf("registry after the re-import:\n%s", ids)
	}
}
