package main

import (
	"io"
	"log/slog"
	"strings"
	"testing"
)

// An unknown --log-level is refused, not silently taken for info.
func TestLogLevelFlag(t *testing.T) {
	defer slog.SetDefault(slog.Default())
	tests := []struct {
		level string
		err   string
	}{
		{"debug", ""},
		{"WARN", ""},
		{"error", ""},
		{"loud", `--log-level "loud": want debug, info, warn or error`},
		{"", `--log-level "": want`},
	}
	for _, tt := range tests {
		root := newRoot()
		root.SetOut(io.Discard)
		root.SetArgs([]string{"--log-level", tt.level, "docs", "cli"})
		err := root.Execute()
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("--log-level %q: error %v, want %q", tt.level, err, tt.err)
		}
	}
}
