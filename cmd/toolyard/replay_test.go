package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/models/bundle"

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

// A model replayed on the history it was trained on reads near-perfect;
// replay says so when the model's training window overlaps the records.
func TestReplayWarnsOfAModelTrainedOnTheRecords(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC) }
	dir := filepath.Join(t.TempDir(), "model")
	b := bundle.Bundle{Manifest: bundle.Manifest{Version: "v-win", Trained: bundle.Trained{From: day(1), Until: day(10)}}, Usage: &discover.Usage{Version: "v-win"}}
	if err := b.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(t.TempDir(), "strict.json")
	if err := os.WriteFile(config, []byte(`{"activate-threshold": 0.9}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name        string
		dir         string
		first, last time.Time
		warn        bool
	}{
		{"the same history", dir, day(1), day(10), true},
		{"later records overlapping", dir, day(8), day(20), true},
		{"records after the training", dir, day(11), day(20), false},
		{"records before it", dir, day(1).AddDate(0, -1, 0), day(1).Add(-time.Hour), false},
		{"a configuration, not a model", config, day(1), day(10), false},
	} {
		var w bytes.Buffer
		warnTrainedOnReplay(&w, "--model", tt.dir, tt.first, tt.last)
		if got := strings.Contains(w.String(), "v-win was trained on history from 2026-11-01T00:00:00Z to 2026-11-10T00:00:00Z"); got != tt.warn {
			t.Errorf("%s: warned %v, want %v: %q", tt.name, got, tt.warn, w.String())
		}
	}
	// The partition keeps the span the warning compares with.
	part, err := replay.NewPartition(1, "")
	if err != nil {
		t.Fatal(err)
	}
	defer part.Close()
	for _, d := range []int{5, 2, 9} {
		if err := part.Add(schemas.AuditRecord{Timestamp: day(d), SessionID: "s"}); err != nil {
			t.Fatal(err)
		}
	}
	if first, last := part.Span(); !first.Equal(day(2)) || !last.Equal(day(9)) {
		t.Errorf("span %s–%s, want the 2nd to the 9th", first, last)
	}
}
