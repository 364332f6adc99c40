package integration

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// The path a new user takes: `toolyard up`, then `toolyard publish --wait`
// prints the results; the ops endpoints answer; SIGTERM stops it cleanly.
func TestUpPublishAndOpsEndpoints(t *testing.T) {
	data := useData(t, t.TempDir())
	port := freePort(t)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	up := startProcess(t, "up", "--data", data, "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--http", "127.0.0.1:0")
	up.WaitOutput(t, "Stop with Ctrl-C", 30*time.Second)
	if !strings.Contains(up.Output.String(), "publish --nats "+url+" --session demo") {
		t.Errorf("the start-up hint should carry --nats for a server off the default address:\n%s", up.Output.String())
	}
	httpBase := regexp.MustCompile(`status:\s+(http://\S+)/`).FindStringSubmatch(up.Output.String())
	if httpBase == nil {
		t.Fatalf("no status address in:\n%s", up.Output.String())
	}

	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(file, []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := fmt.Sprintf("Checking. [TOOL: how long has the system been up] and [TOOL: count the lines of path=%s]", file)
	out, err := exec.Command(binary, "publish", "--nats", url, "--session", "cli", "--wait", "--timeout", "20s", text).CombinedOutput()
	if err != nil {
		t.Fatalf("publish: %v\n%s", err, out)
	}
	var rs []schemas.Result
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		r, err := schemas.Decode[schemas.Result](schemas.KindResult, sc.Bytes())
		if err != nil {
			t.Fatalf("publish printed a line that is not a result: %v\n%s", err, sc.Text())
		}
		rs = append(rs, r)
	}
	if len(rs) != 3 || rs[0].Status != schemas.StatusAccepted {
		t.Fatalf("want the receipt and two results, got:\n%s", out)
	}
	tools := map[string]schemas.Result{}
	for _, r := range rs[1:] {
		tools[r.ToolID] = r
	}
	if r := tools["files/count_lines"]; r.Status != schemas.StatusExecuted || !strings.Contains(fmt.Sprint(r.Output.Content), "3 ") {
		t.Errorf("count_lines: %+v", r)
	}
	if r := tools["system/uptime"]; r.Status != schemas.StatusExecuted || !strings.Contains(fmt.Sprint(r.Output.Content), "load average") {
		t.Errorf("uptime: %+v", r)
	}

	get := func(path string) string {
		t.Helper()
		resp, err := http.Get(httpBase[1] + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s\n%s", path, resp.Status, b)
		}
		return string(b)
	}
	// A stage counts a message after it has published the message's
	// outputs and acknowledged it (pipeline/runner.go), so publish --wait
	// can print the last result before execute has counted its call:
	// the counts are waited for, not read once.
	var lacks []string
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		metrics := get("/metrics")
		lacks = lacks[:0]
		for _, want := range []string{
			`toolyard_stage_messages_total{outcome="ack",stage="parse"} 1`,
			`toolyard_stage_messages_total{outcome="ack",stage="execute"} 2`,
			`toolyard_stage_handler_seconds_count{stage="discover"} 2`,
			`toolyard_stage_consumer_lag{stage="route"}`,
		} {
			if !strings.Contains(metrics, want) {
				lacks = append(lacks, want)
			}
		}
		if len(lacks) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, want := range lacks {
		t.Errorf("/metrics lacks %s 20 s after the results", want)
	}
	// Feedback on both activated intents, judged against their routing:
	// the metric counts activation's precision where agents said.
	for _, args := range [][]string{
		{"--intent", tools["system/uptime"].IntentID, "--tool", "system/uptime"},
		{"--intent", tools["files/count_lines"].IntentID, "--wrong"},
	} {
		out, err := exec.Command(binary, append([]string{"feedback", "--nats", url, "--session", "cli"}, args...)...).CombinedOutput()
		if err != nil || !strings.Contains(string(out), `"tier":"activated"`) {
			t.Errorf("feedback %v: %v\n%s", args, err, out)
		}
	}
	metrics := get("/metrics")
	for _, want := range []string{
		`toolyard_feedback_total{tier="activated",verdict="right"} 1`,
		`toolyard_feedback_total{tier="activated",verdict="wrong"} 1`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if got := get("/healthz"); !strings.Contains(got, "ok") {
		t.Errorf("/healthz: %q", got)
	}
	if got := get("/readyz"); !strings.Contains(got, "ready") {
		t.Errorf("/readyz: %q", got)
	}
	page := get("/")
	for _, want := range []string{"PIPE", "AUDIT", "discover", "execute"} {
		if !strings.Contains(page, want) {
			t.Errorf("status page lacks %q", want)
		}
	}
	// A bad output (dead-lettered by parse) and a failing call, for the
	// page's failures and dead letters.
	nc, err := natsConnect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if err := nc.Publish("agent.output.cli", []byte(`{"session_id": "cli"`)); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(binary, "publish", "--nats", url, "--session", "cli", "--wait", "--timeout", "20s",
		`<tool_call name="files/count_lines">{"path": 7}</tool_call>`).CombinedOutput(); err != nil {
		t.Fatalf("publish: %v\n%s", err, out)
	}
	var status struct {
		Streams []struct {
			Name      string `json:"name"`
			Messages  uint64 `json:"messages"`
			Consumers []struct {
				Name string `json:"name"`
			} `json:"consumers"`
			Ephemeral int `json:"ephemeral_consumers"`
		} `json:"streams"`
		DeadLetters struct {
			ByStage map[string]int `json:"by_stage"`
		} `json:"dead_letters"`
		Activity struct {
			Tiers map[string]int `json:"tiers"`
			Tools []struct {
				ID     string `json:"id"`
				Calls  int    `json:"calls"`
				Errors int    `json:"errors"`
			} `json:"tools"`
			Failures []struct {
				Stage string `json:"stage"`
				Error string `json:"error"`
			} `json:"failures"`
			Feedback map[string]struct {
				Right int `json:"right"`
				Wrong int `json:"wrong"`
			} `json:"feedback"`
		} `json:"activity"`
		Rates map[string]float64 `json:"rates_per_s"`
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if err := json.Unmarshal([]byte(get("/status.json")), &status); err != nil || len(status.Streams) != 5 {
			t.Fatalf("status.json: %v %+v", err, status)
		}
		if status.DeadLetters.ByStage["parse"] > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	// A second read measures each stage's rate against the first.
	if err := json.Unmarshal([]byte(get("/status.json")), &status); err != nil {
		t.Fatal(err)
	}
	if _, ok := status.Rates["PIPE/execute"]; !ok {
		t.Errorf("status rates %v: no rate for the execute stage on a second read", status.Rates)
	}
	var consumers []string
	for _, st := range status.Streams {
		for _, c := range st.Consumers {
			consumers = append(consumers, c.Name)
		}
	}
	for _, c := range consumers {
		if !slices.Contains([]string{"parse", "session", "discover", "route", "choose", "answer", "resolve", "execute", "join"}, c) {
			t.Errorf("status lists consumer %q, which is not a stage's durable one (ephemeral ones are only counted)", c)
		}
	}
	if status.Activity.Tiers["activated"] == 0 {
		t.Errorf("status tier mix: %v", status.Activity.Tiers)
	}
	calls := map[string]int{}
	for _, tl := range status.Activity.Tools {
		calls[tl.ID] = tl.Calls
	}
	if calls["system/uptime"] == 0 || calls["files/count_lines"] == 0 {
		t.Errorf("status tools: %+v", status.Activity.Tools)
	}
	if f := status.Activity.Feedback["activated"]; f.Right != 1 || f.Wrong != 1 {
		t.Errorf("status feedback: %+v, want activated 1 right and 1 wrong", status.Activity.Feedback)
	}
	if len(status.Activity.Failures) == 0 {
		t.Errorf("status lists no failure after a failing call")
	}
	if status.DeadLetters.ByStage["parse"] == 0 {
		t.Errorf("status dead letters: %+v", status.DeadLetters)
	}
	for _, want := range []string{`id="tiers"`, `id="feedback"`, `id="tools"`, `id="failures"`, `id="dlq"`, "system/uptime", `http-equiv="refresh"`} {
		if page := get("/"); !strings.Contains(page, want) {
			t.Errorf("status page lacks %s", want)
		}
	}

	// Republishing a message id runs nothing again and shows what the
	// first publish got.
	const msgID = "cli-once"
	first, err := exec.Command(binary, "publish", "--nats", url, "--session", "cli", "--message-id", msgID, "--wait", "--timeout", "20s", "[TOOL: kernel version]").Output()
	if err != nil {
		t.Fatalf("publish: %v\n%s", err, first)
	}
	again, err := exec.Command(binary, "publish", "--nats", url, "--session", "cli", "--message-id", msgID, "--wait", "--timeout", "20s", "[TOOL: kernel version]").Output()
	if err != nil {
		t.Fatalf("republish: %v\n%s", err, again)
	}
	if !bytes.Equal(first, again) || bytes.Count(again, []byte("\n")) != 2 {
		t.Errorf("a republished message id should print the original receipt and result:\nfirst:\n%s\nagain:\n%s", first, again)
	}

	// A glob asks before removing; --yes removes what it lists.
	remove := func(stdin string, args ...string) (string, error) {
		c := exec.Command(binary, append([]string{"tools", "remove", "--nats", url}, args...)...)
		c.Stdin = strings.NewReader(stdin)
		out, err := c.CombinedOutput()
		return string(out), err
	}
	if out, err := remove("n\n", "files/c*"); err == nil || !strings.Contains(out, "files/checksum") || !strings.Contains(out, "nothing removed") {
		t.Errorf("a declined glob removal: %v\n%s", err, out)
	}
	if out, err := remove("", "files/c*", "--yes"); err != nil || !strings.Contains(out, "2 removed") {
		t.Errorf("glob removal with --yes: %v\n%s", err, out)
	}
	if out, err := remove("", "nothing/"); err == nil || !strings.Contains(out, "matches no tool") {
		t.Errorf("a prefix matching nothing: %v\n%s", err, out)
	}

	up.Kill(syscall.SIGTERM)
	if code := up.Cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("up exited with %d after SIGTERM:\n%s", code, up.Output.String())
	}
}

func TestClientErrorsAreClear(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"publish", "hello"}, `required flag(s) "session" not set`},
		{[]string{"publish", "--session", "a.b", "hi", "--nats", "nats://127.0.0.1:1"}, "invalid session id"},
		{[]string{"publish", "--session", "s", "hi", "--nats", "nats://127.0.0.1:1"}, "is 'toolyard up' running?"},
		{[]string{"worker", "--nats", "nats://127.0.0.1:1"}, "--stage is required"},
		{[]string{"worker", "--stage", "parsing"}, `unknown stage "parsing"`},
		{[]string{"tools", "list", "--registry", "/nonexistent.jsonl"}, "no such file"},
		{[]string{"feedback", "--session", "a.b", "--intent", "x.0", "--wrong", "--nats", "nats://127.0.0.1:1"}, "--session: invalid session id"},
		{[]string{"feedback", "--intent", "x.0", "--wrong", "--nats", "nats://127.0.0.1:1"}, "--session: invalid session id"},
		{[]string{"feedback", "--session", "s", "--wrong", "--nats", "nats://127.0.0.1:1"}, "--intent is required"},
		{[]string{"--log-level", "loud", "tools", "list", "--registry", "/nonexistent.jsonl"}, `--log-level "loud"`},
		{[]string{"bench", "pipeline", "--intents", "0"}, "--intents 0: want at least 1"},
		{[]string{"mcp", "serve", "--stdio", "--timeout", "0s", "--nats", "nats://127.0.0.1:1"}, "--timeout 0s: want a positive duration"},
		{[]string{"outputs", "list", "files/read", "--timeout", "-1s", "--nats", "nats://127.0.0.1:1"}, "--timeout -1s: want a positive duration"},
		{[]string{"publish", "--session", "s", "--wait", "--timeout", "0s", "hi", "--nats", "nats://127.0.0.1:1"}, "--timeout 0s: want a positive duration"},
		{[]string{"tools", "search", "--registry", "../ops/sample/tools.jsonl", "--k", "0", "disk usage"}, "--k 0: want at least 1"},
		{[]string{"tools", "search", "--registry", "../ops/sample/tools.jsonl", "  "}, "the request is empty"},
		{[]string{"mcp", "serve", "--http", "8765", "--nats", "nats://127.0.0.1:1"}, `--http "8765": want HOST:PORT`},
		{[]string{"bench", "pipeline", "--in-flight", "-1"}, "--in-flight -1: want at least 1"},
	}
	for _, tt := range tests {
		out, err := exec.Command(binary, tt.args...).CombinedOutput()
		if err == nil {
			t.Errorf("toolyard %v succeeded", tt.args)
		}
		if !strings.Contains(string(out), tt.want) {
			t.Errorf("toolyard %v: %s\nwant it to mention %q", tt.args, out, tt.want)
		}
	}
}
