package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/models"
	"github.com/toolyard/toolyard/workers/models/bundle"
)

// A --version that cannot be stored (taken, or not a valid name) is refused
// before training, not after minutes of it.
func TestTrainChecksTheVersionFirst(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx := context.Background()
	st, err := models.Open(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "taken")
	b := &bundle.Bundle{Manifest: bundle.Manifest{Version: "taken", CreatedAt: time.Now()},
		Usage: &discover.Usage{Intents: []discover.LearnedIntent{{Tool: "a/b", Text: "some request"}}}}
	if err := b.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := st.PutVersion(ctx, dir); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ version, err string }{
		{"taken", "--version: model version taken is already stored"},
		{"not a name", `--version: model version "not a name": use`},
	} {
		root := newRoot()
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		// The registry file does not exist: training never starts.
		root.SetArgs([]string{"train", "--nats", env.Server.ClientURL(), "--creds", pipelinetest.AdminCreds(env.Server.DataDir()),
			"--tools", filepath.Join(t.TempDir(), "none.jsonl"), "--version", tt.version})
		if err := root.Execute(); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("--version %q: %v, want %q", tt.version, err, tt.err)
		}
	}
}

// models show takes a version directory as replay's and eval's --model do,
// without a server: it was read as a version name ("use 1–64 letters…")
// after connecting.
func TestModelsShowReadsAVersionDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "model")
	b := &bundle.Bundle{Manifest: bundle.Manifest{Version: "offline-1", CreatedAt: time.Now()},
		Usage: &discover.Usage{Intents: []discover.LearnedIntent{{Tool: "a/b", Text: "some request"}}}}
	if err := b.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runRoot("models", "show", dir, "--nats", "nats://127.0.0.1:1")
	if err != nil || !strings.Contains(out, `"version": "offline-1"`) {
		t.Errorf("models show DIR: %v %s\n%s", err, stderr, out)
	}
	if _, _, err := runRoot("models", "show", filepath.Dir(dir), "--nats", "nats://127.0.0.1:1"); err == nil || !strings.Contains(err.Error(), "not a model version directory") {
		t.Errorf("models show of a directory that is no version: %v", err)
	}
}
