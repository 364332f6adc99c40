package integration

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/workers/mcpclient/mcptest"
)

// TestJavaScriptAgentExample runs docs/examples/agent.mjs, an agent written
// with the official NATS JavaScript client, against a real 'toolyard up'
// under an agent credential: the contract holds for a client that is not
// Toolyard's own (inbox prefix, ordered consumer through the agents'
// JetStream proxy, JetStream publish with a message id). Its output is
// answered, a republished message id gets the same answers without running
// anything again, and a session the credential does not cover is refused
// with one line.
func TestJavaScriptAgentExample(t *testing.T) {
	root, err := mcptest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(root, "docs", "examples", "agent.mjs")
	if _, err := exec.LookPath("node"); err != nil {
		evaltest.Unavailable(t, "node (the example agent runs on it; install Node.js 20+ and run make mcp-servers)", err)
	}
	if _, err := os.Stat(filepath.Join(root, "node_modules", "@nats-io", "jetstream")); err != nil {
		t.Fatalf("the NATS JavaScript client is not installed: run make mcp-servers (npm ci from package-lock.json): %v", err)
	}
	_, url := startUp(t, "")
	creds := filepath.Join(t.TempDir(), "js.creds")
	cli(t, 0, "creds", "agent", "--nats", url, "--session", "js-agent", "--ttl", "10m", "--out", creds)

	const text = "Checking. [TOOL: how long has the system been up] and [TOOL: what time is it in Tokyo]"
	run := func(session, messageID, text string, want int) (string, []schemas.Result) {
		t.Helper()
		cmd := exec.Command("node", script, "--nats", url, "--creds", creds, "--session", session,
			"--message-id", messageID, "--timeout", "60", text)
		cmd.Dir = root
		out, err := cmd.Output()
		if code := cmd.ProcessState.ExitCode(); code != want {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("agent.mjs --session %s: exit %d, want %d\n%s\n%s", session, code, want, out, stderr)
		}
		var rs []schemas.Result
		sc := bufio.NewScanner(strings.NewReader(string(out)))
		for sc.Scan() {
			var r schemas.Result
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("agent.mjs printed a line that is no result: %q: %v", sc.Text(), err)
			}
			rs = append(rs, r)
		}
		if err, ok := err.(*exec.ExitError); ok {
			return string(err.Stderr), rs
		}
		return "", rs
	}

	_, first := run("js-agent", "turn-1", text, 0)
	if len(first) != 3 || first[0].Status != schemas.StatusAccepted || len(first[0].IntentIDs) != 2 {
		t.Fatalf("want a receipt of two intents and their two results, got %+v", first)
	}
	tools := []string{}
	for _, r := range first[1:] {
		if r.Status != schemas.StatusExecuted || !slices.Contains(first[0].IntentIDs, r.IntentID) {
			t.Fatalf("result %+v: want executed, for an intent of the receipt", r)
		}
		tools = append(tools, r.ToolID)
	}
	slices.Sort(tools)
	if !slices.Equal(tools, []string{"system/current_time", "system/uptime"}) {
		t.Fatalf("tools run %v, want system/current_time and system/uptime", tools)
	}

	_, again := run("js-agent", "turn-1", text, 0)
	if len(again) != 3 || again[0].Status != schemas.StatusAccepted {
		t.Fatalf("republished: want the receipt and both results again, got %+v", again)
	}
	for i := range again {
		if again[i].IntentID != first[i].IntentID || !again[i].Timestamp.Equal(first[i].Timestamp) {
			t.Fatalf("republished: answer %d is %+v, want the first answer %+v (nothing run again)", i, again[i], first[i])
		}
	}

	// The same id for another text: its answers are not this text's.
	stderr, none := run("js-agent", "turn-1", "[TOOL: show the disk usage of /tmp]", 1)
	if len(none) != 0 || !strings.Contains(stderr, "message id turn-1 was used for another text") {
		t.Fatalf("another text under a used id: want one line saying so and no result, got %q and %+v", stderr, none)
	}

	stderr, none = run("other-session", "turn-1", text, 1)
	if len(none) != 0 || !strings.Contains(stderr, "agent: Permissions Violation") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Fatalf("another session: want one line naming the refused permission and no result, got %q and %+v", stderr, none)
	}
}
