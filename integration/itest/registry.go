package itest

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recordScript is the record tool: it appends "<label> <worker pid>" to
// $RECORD_FILE, so tests can count executions and see which worker ran them.
//
//go:embed testdata/record.sh
var recordScript []byte

// RecordRegistry writes a registry with the record tool (which appends to
// recordFile) and returns its path.
func RecordRegistry(t *testing.T) (path, recordFile string) {
	t.Helper()
	dir := t.TempDir()
	recordFile = filepath.Join(dir, "record.log")
	// The script is written beside the registry: the test packages run in
	// directories of their own, and only the harness holds it.
	script := filepath.Join(dir, "record.sh")
	if err := os.WriteFile(script, recordScript, 0o755); err != nil {
		t.Fatal(err)
	}
	tools := []map[string]any{{
		"id": "test/record", "name": "record",
		"description": "Record a label in the test execution log, optionally after a pause in seconds.",
		"keywords":    []string{"record", "label", "log"},
		"parameters": map[string]any{"type": "object", "required": []string{"label"}, "properties": map[string]any{
			"label": map[string]any{"type": "string", "description": "what to record"},
			"pause": map[string]any{"type": "number", "description": "seconds to wait first", "default": 0},
		}},
		"executor": map[string]any{"kind": "subprocess", "argv": []string{"/bin/sh", script, "{label}", "{pause}"}, "env": []string{"RECORD_FILE"}, "timeout": "20s"},
	}}
	path = filepath.Join(dir, "tools.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(f)
	for _, m := range tools {
		if err := enc.Encode(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RECORD_FILE", recordFile)
	return path, recordFile
}

// Records reads the record log: label → pids of the workers that ran it.
func Records(t *testing.T, file string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		label, rest, _ := strings.Cut(sc.Text(), " ")
		pid, _, _ := strings.Cut(rest, " ") // a third field (a key) is the record's own
		out[label] = append(out[label], pid)
	}
	return out
}
