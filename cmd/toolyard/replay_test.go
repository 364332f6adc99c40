package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/training/replay"
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
