package main

import (
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/spf13/cobra"
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

// A name that is no subcommand of a group (dlq, tools, models, …) is an
// error with a suggestion, not the group's help and exit status 0; the
// group alone still prints its help.
func TestUnknownSubcommandIsAnError(t *testing.T) {
	tests := []struct {
		args []string
		err  string
	}{
		{[]string{"dlq", "lst"}, `unknown command "lst" for "toolyard dlq" (did you mean list?)`},
		{[]string{"tools", "serch", "disk"}, `unknown command "serch" for "toolyard tools" (did you mean search?)`},
		{[]string{"creds", "zzz"}, `unknown command "zzz" for "toolyard creds"; see 'toolyard creds --help'`},
		{[]string{"dlq"}, ""},
		{[]string{"dlq", "--help"}, ""},
	}
	for _, tt := range tests {
		root := newRoot()
		root.SetOut(io.Discard)
		root.SetArgs(tt.args)
		err := root.Execute()
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("toolyard %v: error %v, want %q", tt.args, err, tt.err)
		}
	}
	// Every group, not only those above.
	var groups []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Annotations[groupOnly] != "" {
				groups = append(groups, sub.CommandPath())
			}
			walk(sub)
		}
	}
	walk(newRoot())
	if len(groups) < 8 {
		t.Fatalf("only %d group commands found: %v", len(groups), groups)
	}
	for _, g := range groups {
		root := newRoot()
		root.SetOut(io.Discard)
		root.SetArgs(append(strings.Fields(g)[1:], "no-such-command"))
		if err := root.Execute(); err == nil || !strings.Contains(err.Error(), "unknown command") {
			t.Errorf("%s no-such-command: error %v", g, err)
		}
	}
}

// --version names the build, as the MCP gateway announces it.
func TestVersionFlag(t *testing.T) {
	var b strings.Builder
	root := newRoot()
	root.SetOut(&b)
	root.SetArgs([]string{"--version"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); !strings.HasPrefix(got, "toolyard version ") || !strings.Contains(got, buildVersion()) || buildVersion() == "" {
		t.Errorf("--version printed %q", got)
	}
}
