package main

import (
	"bytes"
	"github.com/toolyard/toolyard/workers/models/bundle"
	"os"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/training/replay"
	"github.com/toolyard/toolyard/workers/discover"
)

func TestReplayApplyConfig(t *testing.T) {
	for _, c := range []struct {
		name     string
		settings []replay.Setting
		activate float64
		encoder  string
		err      string
		note     string
	}{
		{name: "defaults", activate: 0.85, encoder: "none"},
		{name: "thresholds and encoder", settings: []replay.Setting{{Key: "activate-threshold", Values: []string{"0.9"}}, {Key: "encoder", Values: []string{"use-lite"}}}, activate: 0.9, encoder: "use-lite"},
		{name: "an up flag with no effect", settings: []replay.Setting{{Key: "data", Values: []string{"/tmp/x"}}, {Key: "concurrency", Values: []string{"8"}}}, activate: 0.85, encoder: "none", note: "concurrency has no effect"},
		{name: "unknown key", settings: []replay.Setting{{Key: "activation", Values: []string{"0.9"}}}, err: `unknown key "activation"`},
		{name: "global flag is not an up flag", settings: []replay.Setting{{Key: "nats", Values: []string{"nats://x"}}}, err: `unknown key "nats"`},
		{name: "bad value", settings: []replay.Setting{{Key: "activate-threshold", Values: []string{"high"}}}, err: "invalid argument"},
		{name: "thresholds out of order", settings: []replay.Setting{{Key: "weak-threshold", Values: []string{"0.9"}}}, err: "threshold"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var log bytes.Buffer
			b := sideBuilder{g: &globalFlags{}, log: &log}
			sf, err := b.applyConfig("candidate", replay.Config{Source: "c.json", Settings: c.settings})
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if sf.activate != c.activate || sf.encoder != c.encoder {
				t.Fatalf("activate %v encoder %q", sf.activate, sf.encoder)
			}
			if !strings.Contains(log.String(), c.note) {
				t.Fatalf("log %q, want %q", log.String(), c.note)
			}
		})
	}
}

// A sharded job ships a model directory's files, and a worker gets the same
// files back in a directory of its own; a name that is not a plain file
// name is refused.
func TestReplayJobShipsTheModel(t *testing.T) {
	dir := t.TempDir()
	b := bundle.Bundle{Manifest: bundle.Manifest{Version: "v-test"}, Usage: &discover.Usage{Version: "v-test"}}
	if err := b.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	job, err := replayJob(nil, "", "", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(job.CandidateModel) == 0 || job.CandidateModel[bundle.ManifestFile] == nil {
		t.Fatalf("model files not shipped: %v", job.CandidateModel)
	}
	got, err := writeModelDir(job.CandidateModel)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(got)
	back, err := bundle.ReadDir(got)
	if err != nil || back.Manifest.Version != "v-test" {
		t.Fatalf("the shipped model does not read back: %v %+v", err, back)
	}
	if _, err := writeModelDir(map[string][]byte{"../escape": []byte("x")}); err == nil {
		t.Fatal("a model file name with a path was written")
	}
	if _, err := replayJob(nil, "", dir, dir, nil); err == nil {
		t.Fatal("a model as --candidate and another as --model were both taken")
	}
}
