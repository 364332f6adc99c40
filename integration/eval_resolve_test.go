package integration

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalResolveCLI runs 'toolyard eval resolve' as a process on a small
// registry: every query gets a line, the single-call ones are resolved by
// the deterministic resolver, and the figures printed are the ones worked
// out by hand.
func TestEvalResolveCLI(t *testing.T) {
	dir := t.TempDir()
	tools := filepath.Join(dir, "tools.jsonl")
	queries := filepath.Join(dir, "queries.jsonl")
	out := filepath.Join(dir, "out.jsonl")
	write := func(path, body string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(tools, `{"id": "deletePharmacy", "name": "deletePharmacy", "description": "Delete a pharmacy from the pharmacy registry", "parameters": {"type": "object", "properties": {"pharmacy_id": {"type": "integer"}}, "required": ["pharmacy_id"]}}
{"id": "getAvailableRooms", "name": "getAvailableRooms", "description": "Find available hotel rooms for a stay", "parameters": {"type": "object", "properties": {"location": {"type": "string"}, "check_in_date": {"type": "string"}, "check_out_date": {"type": "string"}}, "required": ["location", "check_in_date", "check_out_date"]}}
{"id": "translateText", "name": "translateText", "description": "Translate text into another language", "parameters": {"type": "object", "properties": {"text": {"type": "string"}, "target_language": {"type": "string"}}, "required": ["text", "target_language"]}}
`)
	write(queries, `{"id": "q1", "query": "Delete the pharmacy with ID 87.", "gold_tool_ids": ["deletePharmacy"], "gold_calls": [{"tool": "deletePharmacy", "arguments": {"pharmacy_id": "87"}}]}
{"id": "q2", "query": "Find available hotel rooms in New York from November 25, 2013, to January 7, 2014.", "gold_tool_ids": ["getAvailableRooms"], "gold_calls": [{"tool": "getAvailableRooms", "arguments": {"location": "new york", "check_in_date": "2013-11-25", "check_out_date": "2014-01-08"}}]}
{"id": "q3", "query": "Translate text \"good morning\" and delete pharmacy 3", "gold_tool_ids": ["translateText", "deletePharmacy"], "gold_calls": [{"tool": "translateText", "arguments": {}}, {"tool": "deletePharmacy", "arguments": {}}]}
{"id": "q4", "query": "write a haiku about autumn leaves", "needs_tool": false, "gold_tool_ids": []}
`)
	cmd := exec.Command(binary, "eval", "resolve", "--mode", "keyword", "--tools", tools, "--queries", queries, "--out", out)
	stdout, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("eval resolve: %v\n%s\n%s", err, stdout, stderr)
	}
	// q1 exact; q2 two of three pairs right (the check-out date differs):
	// 3 right pairs, 1 wrong value (a false positive and a false negative).
	for _, want := range []string{
		"resolution (2 queries with one gold call): tool accuracy 1.000, argument exact match 0.500, argument F1 0.750 (P 0.750, R 0.750)",
		"awareness (1 queries that need no tool): 100.0% end as weak_matches or not_found",
		"routing (3 queries with gold tools)",
	} {
		if !strings.Contains(string(stdout), want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ids []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l struct {
			ID         string         `json:"id"`
			ToolID     string         `json:"tool_id"`
			Arguments  map[string]any `json:"arguments"`
			Status     string         `json:"status"`
			Confidence *float64       `json:"confidence"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, l.ID)
		if l.Status == "" || l.Confidence == nil {
			t.Errorf("line %s lacks status or confidence: %s", l.ID, sc.Text())
		}
		if l.ID == "q2" && (l.ToolID != "getAvailableRooms" || l.Arguments["check_in_date"] != "2013-11-25" || l.Arguments["location"] != "New York") {
			t.Errorf("q2: %s", sc.Text())
		}
	}
	if strings.Join(ids, ",") != "q1,q2,q3,q4" {
		t.Errorf("lines for %v, want q1..q4", ids)
	}

	// --help explains the figures.
	help, err := exec.Command(binary, "eval", "resolve", "--help").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"argument exact match", "argument F1", "--gold-tool", "weak_matches or not_found"} {
		if !strings.Contains(string(help), want) {
			t.Errorf("--help lacks %q", want)
		}
	}
}
