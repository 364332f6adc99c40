package integration

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// A trained model in force: an intent whose phrasing resolved to one tool
// in session after session of the history gets a hint with the direct
// call; a phrasing the history resolved to two tools gets none, and no
// intent gets one before the model is in force.
func TestRepeatedPhrasingGetsAShortcutHint(t *testing.T) {
	dir := t.TempDir()
	registry := filepath.Join(dir, "tools.jsonl")
	writeLines(t, registry,
		`{"id": "notes/tidy", "description": "Tidy the notes folder: remove empty and duplicate note files", "executor": {"kind": "subprocess", "argv": ["true"], "timeout": "5s"}}`,
		`{"id": "notes/backup", "description": "Copy the notes folder to the backup disk", "executor": {"kind": "subprocess", "argv": ["true"], "timeout": "5s"}}`,
		`{"id": "clock/now", "description": "Print the current date and time", "executor": {"kind": "subprocess", "argv": ["date"], "timeout": "5s"}}`,
		`{"id": "disk/free", "description": "Show the free space left on each disk", "executor": {"kind": "subprocess", "argv": ["true"], "timeout": "5s"}}`,
	)
	// Imported history (the audit contract's seven fields), our own words.
	t0 := time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)
	var recs []string
	add := func(session, text, tool string) {
		r := map[string]any{"timestamp": t0.Add(time.Duration(len(recs)) * time.Minute), "session_id": session, "conversation_context": "",
			"intent_expressed": "[TOOL: " + text + "]", "tool_id": tool, "parameters": map[string]any{}, "result": "success"}
		b, _ := json.Marshal(r)
		recs = append(recs, string(b))
	}
	for i := range 4 {
		add(fmt.Sprintf("h%d", i), "sweep out my scratch notes", "notes/tidy")
	}
	for i := range 4 {
		add(fmt.Sprintf("m%d", i), "put the notes somewhere safe", []string{"notes/tidy", "notes/backup"}[i%2])
	}
	filler := map[string][]string{
		"notes/tidy":   {"clean up the notes", "drop the empty notes", "dedupe my notes folder", "remove blank note files"},
		"notes/backup": {"back up my notes", "copy notes to the spare disk", "save a copy of the notes", "notes onto the backup drive"},
		"clock/now":    {"what time is it", "tell me the date", "current time please", "which day is today"},
		"disk/free":    {"how full are the disks", "free space left", "is the disk nearly full", "space remaining on drives"},
	}
	for round := range 4 {
		for _, tool := range []string{"notes/tidy", "notes/backup", "clock/now", "disk/free"} {
			for j, text := range filler[tool] {
				add(fmt.Sprintf("f%d-%d", round, j), fmt.Sprintf("%s %s", text, []string{"now", "soon", "today", "again"}[round]), tool)
			}
		}
	}
	history := filepath.Join(dir, "history.jsonl")
	writeLines(t, history, recs...)

	port := freePort(t)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	up := startProcess(t, "up", "--data", useData(t, filepath.Join(dir, "data")), "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--http", "", "--registry", registry)
	up.WaitOutput(t, "Stop with Ctrl-C", 60*time.Second)
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(binary, append(args, "--nats", url)...).CombinedOutput()
		if err != nil {
			t.Fatalf("toolyard %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	n := 0
	ask := func(text string) schemas.Result {
		t.Helper()
		n++
		out := run("publish", "--session", fmt.Sprintf("ask-%d", n), "--wait", "--timeout", "30s", "[TOOL: "+text+"]")
		return lastResult(t, []byte(out))
	}
	const repeated, mixed = "Sweep out my scratch notes!", "put the notes somewhere safe"
	if r := ask(repeated); r.Hint != nil {
		t.Fatalf("a hint with no model in force: %+v", r.Hint)
	}

	// The guard's tolerances are opened: this test is about the hint, the
	// guard's refusals are tested in training/learn.
	out := run("train", "--audit", history, "--guard-hit", "1", "--guard-ece", "1", "--guard-min-examples", "1")
	m := regexp.MustCompile(`model (\S+) in force`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("train did not promote a version:\n%s", out)
	}
	if !strings.Contains(out, "learned shortcuts: ") {
		t.Errorf("train does not report its shortcuts:\n%s", out)
	}
	up.WaitOutput(t, "version="+m[1]+" took=", 60*time.Second)

	r := ask(repeated)
	if r.Hint == nil {
		t.Fatalf("no hint for a phrasing the history resolved to notes/tidy in 4 sessions: %s %s %q\n%s", r.Status, r.ToolID, r.Message, out)
	}
	if r.Hint.ToolID != "notes/tidy" || r.Hint.ToolCall != `<tool_call name="notes/tidy">{…arguments…}</tool_call>` ||
		r.Hint.Count != 4 || r.Hint.Sessions != 4 || r.Hint.Share != 1 || r.Hint.Model != m[1] {
		t.Errorf("hint %+v", *r.Hint)
	}
	// The micro service answers with the same hint.
	nc, err := natsConnect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	reply, err := nc.Request("toolyard.resolve_intent.svc-hint", []byte(`{"text": "sweep out my scratch notes"}`), 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var svc schemas.Result
	if err := json.Unmarshal(reply.Data, &svc); err != nil || svc.Hint == nil || svc.Hint.ToolID != "notes/tidy" {
		t.Errorf("resolve_intent reply %s (err %v): want a hint for notes/tidy", reply.Data, err)
	}
	if r := ask(mixed); r.Hint != nil {
		t.Errorf("a hint for a phrasing the history resolved to two tools: %+v", *r.Hint)
	}
	if r := ask("sweep out my old notes"); r.Hint != nil {
		t.Errorf("a hint for a phrasing the history never saw: %+v", *r.Hint)
	}
}

func writeLines(t *testing.T, path string, lines ...string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
