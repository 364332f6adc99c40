package kiwi_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/execute"
	"github.com/toolyard/toolyard/workers/kiwi"
	"github.com/toolyard/toolyard/workers/registry"
)

// An imported tool runs through the runtime its __executor_id__ names: the
// delegation chain hands the runtime the tool's file as script_path.
func TestImportedToolRunsOnItsRuntime(t *testing.T) {
	files, err := kiwi.LoadDir(filepath.Join("testdata", "project"), kiwi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var tools []schemas.Manifest
	for _, f := range files {
		if f.Err == nil {
			tools = append(tools, f.Manifest)
		}
	}
	// A stand-in runtime that shows which file it was given and with what
	// arguments (a real one would be python3 {script_path}).
	tools = append(tools, schemas.Manifest{ID: "python_runtime", Description: "Runs a Python tool file",
		Executor: &schemas.Executor{Kind: schemas.ExecSubprocess, Timeout: schemas.Duration(10 * time.Second),
			Argv: []string{"/bin/sh", "-c", `echo "running $0 for $1"; head -n 3 "$0"`, "{script_path}", "{query}"}}})
	e := execute.New(registry.New(tools...), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := e.Execute(ctx, schemas.ToolCall{IntentID: "i", SessionID: "s", MetaTool: schemas.MetaExecute,
		ToolID: "kiwi/search/web_search", Parameters: map[string]any{"query": "go fuzzing"}})
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Join("testdata", "project", kiwi.ToolsDir, "search", "web_search.py"))
	s, _ := out.Content.(string)
	if !strings.Contains(s, "running "+abs+" for go fuzzing") || !strings.Contains(s, "Search the web") {
		t.Fatalf("runtime output %q", s)
	}
	// The file cannot be swapped by the caller.
	_, err = e.Execute(ctx, schemas.ToolCall{IntentID: "i2", SessionID: "s", MetaTool: schemas.MetaExecute,
		ToolID: "kiwi/search/web_search", Parameters: map[string]any{"query": "x", kiwi.ScriptParam: "/etc/passwd"}})
	if err == nil || !strings.Contains(err.Error(), "script_path") {
		t.Fatalf("script_path override: %v, want it refused", err)
	}
}
