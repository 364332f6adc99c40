package integration

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/workers/llmresolve/llmtest"
)

// TestProtocolFakeLLMEvalResolve: 'toolyard eval resolve' measures the LLM
// resolver when given the --llm flags (here a fake Ollama server with
// scripted replies): the model's arguments are scored, and a model that
// answers nonsense falls back to the deterministic resolver.
func TestProtocolFakeLLMEvalResolve(t *testing.T) {
	reg, _ := testRegistry(t)
	dir := t.TempDir()
	queries := filepath.Join(dir, "queries.jsonl")
	lines := `{"id": "q1", "query": "record a label in the test log: the one about the launch", "gold_tool_ids": ["test/record"], "gold_calls": [{"tool": "test/record", "arguments": {"label": "launch"}}]}
{"id": "q2", "query": "record label=beta in the test log", "gold_tool_ids": ["test/record"], "gold_calls": [{"tool": "test/record", "arguments": {"label": "beta"}}]}
`
	if err := os.WriteFile(queries, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	pick := `{"use_tool": true, "tool": "test/record", "confidence": 0.9}`
	fake := llmtest.NewFakeServer(t,
		llmtest.Reply{Text: pick}, llmtest.Reply{Text: `{"label": "launch"}`},
		llmtest.Reply{Text: "hmm"}, llmtest.Reply{Text: "hmm again"})
	out := filepath.Join(dir, "out.jsonl")
	cmd := exec.Command(binary, "eval", "resolve", "--tools", reg, "--queries", queries, "--out", out,
		"--mode", "keyword", "--llm", "ollama", "--llm-url", fake.OllamaURL(), "--llm-model", "fake-model")
	stdout, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("eval resolve: %v\n%s\n%s", err, stdout, stderr)
	}
	if !strings.Contains(string(stdout), "resolver llm ollama:fake-model") {
		t.Errorf("report does not name the LLM resolver:\n%s", stdout)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string]map[string]any{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l struct {
			ID        string         `json:"id"`
			Arguments map[string]any `json:"arguments"`
			Status    string         `json:"status"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		got[l.ID] = l.Arguments
	}
	if got["q1"]["label"] != "launch" {
		t.Errorf("q1: arguments %v, want the model's label launch", got["q1"])
	}
	if got["q2"]["label"] != "beta" {
		t.Errorf("q2: arguments %v, want the deterministic fallback's label beta", got["q2"])
	}
	if n := len(fake.Requests()); n != 4 {
		t.Errorf("the model got %d requests, want 4", n)
	}
}
