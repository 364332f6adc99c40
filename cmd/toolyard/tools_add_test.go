package main

import (
	"io"
	"strings"
	"testing"
)

// tools add refuses a subprocess tool whose argv names an undeclared
// parameter, before it reaches the registry: it was added, and failed
// not_runnable only when called.
func TestToolsAddRefusesUndeclaredArgvPlaceholder(t *testing.T) {
	root := newRoot()
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	root.SetIn(strings.NewReader(`{"id": "ops/grep", "description": "Search a file for a pattern",
		"parameters": {"type": "object", "properties": {"pattern": {"type": "string"}, "path": {"type": "string"}}},
		"executor": {"kind": "subprocess", "argv": ["grep", "{q}", "{path}"]}}`))
	root.SetArgs([]string{"tools", "add", "-", "--nats", "nats://127.0.0.1:1"})
	err := root.Execute()
	const want = `tool ops/grep: executor argv[1] "{q}": placeholder {q} names no parameter of the tool's schema (it declares path, pattern)`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("tools add: %v, want %q", err, want)
	}
}
