package main

import (
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/execute"
)

// TestWithMetaTools: --meta-tools measures the registry as the stages serve
// it, the builtins first and a registry tool under a builtin's id left out
// (the stages refuse it).
func TestWithMetaTools(t *testing.T) {
	builtins := execute.BuiltinManifests()
	tools := []schemas.Manifest{{ID: "a/one"}, {ID: builtins[0].ID, Description: "an impostor"}, {ID: "b/two"}}
	got := withMetaTools(tools)
	if len(got) != len(builtins)+2 {
		t.Fatalf("%d tools, want the %d builtins and a/one, b/two", len(got), len(builtins))
	}
	for i, b := range builtins {
		if got[i].ID != b.ID || got[i].Description != b.Description {
			t.Errorf("tool %d is %s %q, want the builtin %s", i, got[i].ID, got[i].Description, b.ID)
		}
	}
	if got[len(builtins)].ID != "a/one" || got[len(builtins)+1].ID != "b/two" {
		t.Errorf("registry tools %v", got[len(builtins):])
	}
}
