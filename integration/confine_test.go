package integration

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/execute"
)

var labelSchema = json.RawMessage(`{"type":"object","required":["label"],"properties":{"label":{"type":"string"}}}`)

func subprocess(argv ...string) map[string]any {
	return map[string]any{"kind": "subprocess", "argv": argv}
}

// A tool that writes is refused by a default worker, with an error that
// names the missing class and the flag; the same call runs on a worker
// started with --allow write. Reading tools run either way.
func TestWriteToolNeedsAllowFlag(t *testing.T) {
	dir := t.TempDir()
	effects := filepath.Join(dir, "effects.log")
	script := filepath.Join(dir, "append.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"$1\" >> "+effects+"\necho appended\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tools := filepath.Join(dir, "tools.jsonl")
	writeJSONL(t, tools,
		map[string]any{"id": "notes/append", "description": "Append a label to the notes", "parameters": labelSchema,
			"permissions": []string{"fs.write"}, "executor": subprocess("/bin/sh", script, "{label}")},
		map[string]any{"id": "notes/read", "description": "Read the notes", "permissions": []string{"fs.read"}, "executor": subprocess("echo", "read")},
	)
	calls := `<tool_call name="notes/append">{"label": "by-agent"}</tool_call>
<tool_call name="notes/read">{}</tool_call>`

	env := startEnv(t)
	startWorkers(t, env, 1, bind.StageParse+","+bind.StageExecute, tools)
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "default", Text: calls})
	got := resultsByTool(t, env, "default", 2)
	wantRefused(t, got["notes/append"], "permission_denied",
		"tool notes/append needs write (permission fs.write), which session default is not granted: tools run read-only by default; grant it with --allow write on 'toolyard up' or 'toolyard worker'")
	if r := got["notes/read"]; r.Status != schemas.StatusExecuted {
		t.Errorf("notes/read on a default worker: %s %+v", r.Status, r.Error)
	}
	if data, _ := os.ReadFile(effects); len(data) != 0 {
		t.Fatalf("the refused tool wrote %q", data)
	}

	granted := startEnv(t)
	startWorkers(t, granted, 1, bind.StageParse+","+bind.StageExecute, tools, "--allow", "write")
	publishOutput(t, granted.JS, schemas.AgentOutput{SessionID: "granted", Text: calls})
	got = resultsByTool(t, granted, "granted", 2)
	if r := got["notes/append"]; r.Status != schemas.StatusExecuted || r.Output == nil || r.Output.Content != "appended\n" {
		t.Errorf("notes/append with --allow write: %s %+v %+v", r.Status, r.Error, r.Output)
	}
	if data, _ := os.ReadFile(effects); string(data) != "by-agent\n" {
		t.Fatalf("effects %q, want the one granted run", data)
	}
}

// Path arguments stay inside the worker's roots (its working directory
// and /tmp by default) after symlinks: /etc/shadow, /proc/self/environ, a
// symlink out of /tmp and a ../ escape are refused naming the roots, and
// the tool never runs.
func TestPathArgumentsConfined(t *testing.T) {
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs.log")
	data := filepath.Join(dir, "data.txt")
	if err := os.WriteFile(data, []byte("a\nb\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	escape := filepath.Join(dir, "escape")
	if err := os.Symlink("/etc", escape); err != nil {
		t.Fatal(err)
	}
	tools := filepath.Join(dir, "tools.jsonl")
	writeJSONL(t, tools, map[string]any{"id": "files/lines", "description": "Count the lines of a file",
		"parameters":  json.RawMessage(`{"type":"object","required":["path"],"properties":{"path":{"type":"string"}}}`),
		"permissions": []string{"fs.read"},
		"executor":    subprocess("/bin/sh", "-c", `echo "$0" >> `+runs+`; wc -l < "$0"`, "{path}")})
	env := startEnv(t)
	startWorkers(t, env, 1, bind.StageParse+","+bind.StageExecute, tools)
	// The worker's default roots: its working directory (the test's),
	// /tmp, and TMPDIR when it is elsewhere.
	roots := "(" + strings.Join(execute.DefaultPathRoots(), ", ") + ")"

	cases := map[string]string{ // session → path argument
		"shadow":  "/etc/shadow",
		"environ": "/proc/self/environ",
		"symlink": filepath.Join(escape, "shadow"),
		"dotdot":  dir + strings.Repeat("/..", strings.Count(dir, "/")) + "/etc/passwd",
		"inside":  data,
		// a directory a tool may make first (mkdir -p), then a link out
		"missing": filepath.Join(dir, "new") + "/../escape/shadow",
	}
	for session, path := range cases {
		arg, _ := json.Marshal(map[string]string{"path": path})
		publishOutput(t, env.JS, schemas.AgentOutput{SessionID: session, Text: `<tool_call name="files/lines">` + string(arg) + `</tool_call>`})
	}
	for session, path := range cases {
		r := resultsByTool(t, env, session, 1)["files/lines"]
		switch session {
		case "inside":
			if r.Status != schemas.StatusExecuted || r.Output == nil || r.Output.Content != "3\n" {
				t.Errorf("%s: %s %+v %+v", path, r.Status, r.Error, r.Output)
			}
		case "symlink":
			wantRefused(t, r, "path_not_allowed", "path="+path+" (resolves to /etc/shadow) is outside the allowed path roots "+roots+
				"; paths are confined after following symlinks; allow another directory with --path-root DIR")
		case "dotdot":
			wantRefused(t, r, "path_not_allowed", "(resolves to /etc/passwd) is outside the allowed path roots "+roots)
		case "missing":
			wantRefused(t, r, "path_not_allowed", "(resolves to /etc/shadow) is outside the allowed path roots "+roots)
		default:
			wantRefused(t, r, "path_not_allowed", "path="+path)
			wantRefused(t, r, "path_not_allowed", "is outside the allowed path roots "+roots)
		}
	}
	if got, _ := os.ReadFile(runs); string(got) != data+"\n" {
		t.Fatalf("the tool ran for %q, want only %s", got, data)
	}
}

// A subprocess tool sees PATH, HOME, LANG, its declared variables and the
// call's ids, nothing else of the worker's environment; it runs under the
// CPU and memory limits of --tool-cpu and --tool-memory, without core
// files.
func TestSubprocessToolEnvironmentAndLimits(t *testing.T) {
	t.Setenv("TOOLYARD_TEST_SECRET", "s3cret-of-the-worker")
	t.Setenv("TOOLYARD_TEST_DECLARED", "declared-value")
	t.Setenv("LC_ALL", "C")
	dir := t.TempDir()
	tools := filepath.Join(dir, "tools.jsonl")
	printEnv := subprocess("env")
	printEnv["env"] = []string{"TOOLYARD_TEST_DECLARED", "FIXED=1"}
	writeJSONL(t, tools,
		map[string]any{"id": "debug/env", "description": "Print the environment", "executor": printEnv},
		map[string]any{"id": "debug/limits", "description": "Print the limits", "executor": subprocess("/bin/sh", "-c", "echo $(ulimit -t) $(ulimit -d) $(ulimit -c)")},
	)
	env := startEnv(t)
	startWorkers(t, env, 1, bind.StageParse+","+bind.StageExecute, tools, "--tool-cpu", "7s", "--tool-memory", "256")
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "envs", Text: `<tool_call name="debug/env">{}</tool_call><tool_call name="debug/limits">{}</tool_call>`})
	got := resultsByTool(t, env, "envs", 2)
	r := got["debug/env"]
	if r.Status != schemas.StatusExecuted || r.Output == nil {
		t.Fatalf("debug/env: %s %+v", r.Status, r.Error)
	}
	var names []string
	vars := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(r.Output.Content.(string)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		names = append(names, k)
		vars[k] = v
	}
	sort.Strings(names)
	want := []string{"FIXED", "HOME", "LANG", "PATH", "TOOLYARD_IDEMPOTENCY_KEY", "TOOLYARD_INTENT_ID", "TOOLYARD_TEST_DECLARED"}
	if _, ok := os.LookupEnv("LANG"); !ok {
		want = []string{"FIXED", "HOME", "PATH", "TOOLYARD_IDEMPOTENCY_KEY", "TOOLYARD_INTENT_ID", "TOOLYARD_TEST_DECLARED"}
	}
	// A variable the manifest passes is a secret: the tool printed its
	// value, and the result shows it scrubbed.
	if strings.Join(names, " ") != strings.Join(want, " ") || vars["TOOLYARD_TEST_DECLARED"] != "***" {
		t.Fatalf("the tool's environment has %q, want exactly %q:\n%s", names, want, r.Output.Content)
	}
	if strings.Contains(r.Output.Content.(string), "s3cret") {
		t.Fatal("the worker's secret reached the tool")
	}
	if r := got["debug/limits"]; r.Status != schemas.StatusExecuted || r.Output == nil || r.Output.Content != "7 262144 0\n" {
		t.Fatalf("debug/limits: %s %+v %+v, want cpu 7 s, data 262144 KiB, core 0", r.Status, r.Error, r.Output)
	}
}

// An http tool whose host name resolves to 127.0.0.1 is refused when it
// connects, although its URL passes the host check: nothing reaches the
// server. The same server named by its IP literal is reached.
func TestHTTPToolResolvingToLoopbackRefused(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte("internal data"))
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	dir := t.TempDir()
	tools := filepath.Join(dir, "tools.jsonl")
	writeJSONL(t, tools,
		map[string]any{"id": "web/by-name", "description": "Fetch by name",
			"executor": map[string]any{"kind": "http", "url": "http://localhost:" + u.Port() + "/secret", "allowed_hosts": []string{"localhost"}}},
		map[string]any{"id": "web/by-ip", "description": "Fetch by IP", "executor": map[string]any{"kind": "http", "url": srv.URL + "/ok"}},
	)
	env := startEnv(t)
	startWorkers(t, env, 1, bind.StageParse+","+bind.StageExecute, tools, "--allow", "network")
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "web", Text: `<tool_call name="web/by-name">{}</tool_call>`})
	wantRefused(t, resultsByTool(t, env, "web", 1)["web/by-name"], "host_not_allowed",
		"refused: host localhost resolved to 127.0.0.1, an address on this machine or a private network")
	if n := hits.Load(); n != 0 {
		t.Fatalf("the server got %d requests through a name", n)
	}
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "web-ip", Text: `<tool_call name="web/by-ip">{}</tool_call>`})
	if r := resultsByTool(t, env, "web-ip", 1)["web/by-ip"]; r.Status != schemas.StatusExecuted || r.Output.Content != "internal data" {
		t.Fatalf("by IP: %s %+v %+v", r.Status, r.Error, r.Output)
	}
}

// runCLI runs the binary and returns its combined output and exit code.
func runCLI(t *testing.T, args ...string) (string, int) {
	t.Helper()
	out, err := exec.Command(binary, args...).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// A signed tool cannot be replaced by an older signed version: the import
// is refused, the registry keeps the newer one, and a worker that requires
// signatures runs it.
func TestSignedToolDowngradeRefused(t *testing.T) {
	env := startEnv(t)
	natsURL := env.Server.ClientURL()
	dir := t.TempDir()
	key := filepath.Join(dir, "signing.nk")
	pub := strings.TrimSpace(toolyard(t, "tools", "keygen", "--out", key))
	version := func(name, word, serial string) string {
		file := filepath.Join(dir, name)
		writeJSONL(t, file, map[string]any{"id": "ops/deploy", "description": "Deploy the service", "executor": subprocess("echo", word)})
		toolyard(t, "tools", "sign", "--key", key, "--serial", serial, file)
		return file
	}
	v1, v2 := version("v1.jsonl", "deploy-v1", "10"), version("v2.jsonl", "deploy-v2", "20")
	toolyard(t, "tools", "import", "--nats", natsURL, v1)
	toolyard(t, "tools", "import", "--nats", natsURL, "--replace", v2)
	out, code := runCLI(t, "tools", "import", "--nats", natsURL, "--replace", v1)
	if code == 0 || !strings.Contains(out, "older signed version: signature serial 10 is older than serial 20 already seen for this id") {
		t.Fatalf("downgrade import: exit %d\n%s", code, out)
	}
	// Removing the tool first does not help.
	toolyard(t, "tools", "remove", "--nats", natsURL, "ops/deploy")
	if out, code := runCLI(t, "tools", "import", "--nats", natsURL, v1); code == 0 || !strings.Contains(out, "serial 10 is older than serial 20") {
		t.Fatalf("downgrade import after remove: exit %d\n%s", code, out)
	}
	toolyard(t, "tools", "import", "--nats", natsURL, v2)
	empty := filepath.Join(dir, "none.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	startWorkers(t, env, 1, bind.StageParse+","+bind.StageExecute, empty, "--require-signed", "--trusted-keys", pub)
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "deploy", Text: `<tool_call name="ops/deploy">{}</tool_call>`})
	if r := resultsByTool(t, env, "deploy", 1)["ops/deploy"]; r.Status != schemas.StatusExecuted || r.Output.Content != "deploy-v2\n" {
		t.Fatalf("%s %+v %+v, want v2 run", r.Status, r.Error, r.Output)
	}
}

// A file a signed tool sources (declared in its executor's files) is
// covered by the signature: once it changes, the tool is refused and the
// changed code never runs.
func TestTamperedExtraFileRefused(t *testing.T) {
	dir := t.TempDir()
	effects := filepath.Join(dir, "effects.log")
	if err := os.WriteFile(filepath.Join(dir, "main.sh"), []byte("#!/bin/sh\n. ./lib.sh\ngreet \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	lib := filepath.Join(dir, "lib.sh")
	if err := os.WriteFile(lib, []byte("greet() { echo \"hello $1\"; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tools := filepath.Join(dir, "tools.jsonl")
	writeJSONL(t, tools, map[string]any{"id": "greet/hello", "description": "Greet someone", "parameters": labelSchema,
		"executor": map[string]any{"kind": "subprocess", "argv": []string{"/bin/sh", "main.sh", "{label}"}, "dir": dir, "files": []string{"lib.sh"}}})
	key := filepath.Join(dir, "signing.nk")
	pub := strings.TrimSpace(toolyard(t, "tools", "keygen", "--out", key))
	toolyard(t, "tools", "sign", "--key", key, tools)
	if out := toolyard(t, "tools", "verify", "--trusted-keys", pub, tools); !strings.Contains(out, "greet/hello\tok") {
		t.Fatalf("verify: %s", out)
	}
	env := startEnv(t)
	startWorkers(t, env, 1, bind.StageParse+","+bind.StageExecute, tools, "--require-signed", "--trusted-keys", pub)
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "before", Text: `<tool_call name="greet/hello">{"label": "Ada"}</tool_call>`})
	if r := resultsByTool(t, env, "before", 1)["greet/hello"]; r.Status != schemas.StatusExecuted || r.Output.Content != "hello Ada\n" {
		t.Fatalf("before tampering: %s %+v %+v", r.Status, r.Error, r.Output)
	}
	if err := os.WriteFile(lib, []byte("greet() { echo pwned >> "+effects+"; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "after", Text: `<tool_call name="greet/hello">{"label": "Ada"}</tool_call>`})
	wantRefused(t, resultsByTool(t, env, "after", 1)["greet/hello"], "bad_signature", "script "+lib+" changed since it was signed")
	if data, _ := os.ReadFile(effects); len(data) != 0 {
		t.Fatalf("the tampered file ran: %q", data)
	}
	if out, code := runCLI(t, "tools", "verify", "--trusted-keys", pub, tools); code != 1 || !strings.Contains(out, "lib.sh changed since it was signed") {
		t.Fatalf("verify after tampering: exit %d\n%s", code, out)
	}
}

// A root worker without --run-as says loudly that tools run as root; with
// --run-as nobody, tools run as nobody and the warning is gone.
func TestRunAsAndRootWarning(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the warning and --run-as are about root workers")
	}
	dir := t.TempDir()
	tools := filepath.Join(dir, "tools.jsonl")
	writeJSONL(t, tools, map[string]any{"id": "debug/whoami", "description": "Print the user id", "executor": subprocess("id", "-u")})
	const warning = "WARNING: subprocess tools and stdio MCP servers will run as root: this worker is root and no --run-as USER was given"
	for _, tc := range []struct {
		name  string
		extra []string
		uid   string
		warns bool
	}{
		{"default", nil, "0", true},
		{"run-as nobody", []string{"--run-as", "nobody"}, "65534", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := startEnv(t)
			ps := startWorkers(t, env, 1, bind.StageParse+","+bind.StageExecute, tools, tc.extra...)
			if got := strings.Contains(ps[0].Output.String(), warning); got != tc.warns {
				t.Errorf("warning printed: %v, want %v:\n%s", got, tc.warns, ps[0].Output.String())
			}
			publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "who", Text: `<tool_call name="debug/whoami">{}</tool_call>`})
			if r := resultsByTool(t, env, "who", 1)["debug/whoami"]; r.Status != schemas.StatusExecuted || r.Output.Content != tc.uid+"\n" {
				t.Fatalf("%s %+v %+v, want uid %s", r.Status, r.Error, r.Output, tc.uid)
			}
		})
	}
}
