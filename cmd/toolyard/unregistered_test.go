package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Queries or history written for another registry make every answer a
// miss; eval and replay say so, as train does, instead of printing hit@1 0
// or "lost" for all as if discovery had failed.
func TestMismatchedRegistryIsWarned(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tools := write("tools.jsonl", `{"id":"files/checksum","name":"checksum","description":"Compute the checksum of a file.","parameters":{"type":"object","properties":{}}}`+"\n")
	queries := write("queries.jsonl", `{"id":"1","query":"convert this audio clip to text","gold_tool_ids":["speech/transcribe"]}`+"\n"+
		`{"id":"2","query":"checksum of the tarball","gold_tool_ids":["files/checksum"]}`+"\n"+
		`{"id":"3","query":"translate the note to French","gold_tool_ids":["lang/translate"]}`+"\n")
	audit := write("audit.jsonl", `{"timestamp":"2026-11-01T10:00:00Z","session_id":"s1","conversation_context":"","intent_expressed":"[TOOL: convert this audio clip to text]","tool_id":"speech/transcribe","parameters":{},"result":"success"}`+"\n"+
		`{"timestamp":"2026-11-01T10:01:00Z","session_id":"s2","conversation_context":"","intent_expressed":"[TOOL: translate the note to French]","tool_id":"lang/translate","parameters":{},"result":"success"}`+"\n")
	config := write("keyword.json", `{"discovery": "keyword"}`)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "discovery", "--mode", "keyword", "--tools", tools, "--queries", queries}, "warning: 2 of the 3 queries with gold tools name none the registry has (speech/transcribe, …)"},
		{[]string{"replay", "--tools", tools, "--audit", audit, "--candidate", config, "--report", filepath.Join(dir, "report")}, "warning: 2 of the 2 records that name a tool name one the registry does not have (lang/translate, speech/transcribe, …)"},
	} {
		root := newRoot()
		var stderr bytes.Buffer
		root.SetOut(&bytes.Buffer{})
		root.SetErr(&stderr)
		root.SetArgs(tt.args)
		if err := root.Execute(); err != nil {
			t.Fatalf("%v: %v\n%s", tt.args[:2], err, stderr.String())
		}
		if !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%v: no warning %q in\n%s", tt.args[:2], tt.want, stderr.String())
		}
	}
}
