package main

import (
	"io"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// train warns when most records name tools the registry does not have,
// and only then.
func TestWarnUnregistered(t *testing.T) {
	tools := []schemas.Manifest{{ID: "files/checksum"}, {ID: "system/uptime"}}
	rec := func(id string) schemas.AuditRecord { return schemas.AuditRecord{ToolID: id} }
	tests := []struct {
		name string
		recs []schemas.AuditRecord
		want string // "" for no warning
	}{
		{"all registered", []schemas.AuditRecord{rec("files/checksum"), rec("system/uptime")}, ""},
		{"meta tools and no tool are not counted", []schemas.AuditRecord{rec("toolyard/activate"), rec(""), rec("files/checksum")}, ""},
		{"half missing", []schemas.AuditRecord{rec("files/checksum"), rec("ResumeTool")}, ""},
		{"history of another registry", []schemas.AuditRecord{rec("ResumeTool"), rec("WeatherTool"), rec("files/checksum")}, "2 of the 3 records that name a tool name one the registry does not have (ResumeTool, WeatherTool, …)"},
		{"no records", nil, ""},
	}
	for _, tt := range tests {
		var b strings.Builder
		warnUnregistered(&b, tt.recs, tools)
		if tt.want == "" && b.Len() > 0 || tt.want != "" && !strings.Contains(b.String(), tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, b.String(), tt.want)
		}
	}
}

// Out-of-range training flags are refused before any work (learn.Train
// would take them for its defaults and say nothing), and so is --since
// beside --audit files, which it cannot filter.
func TestTrainRefusesFlagsOutOfRange(t *testing.T) {
	for _, tt := range []struct {
		args []string
		err  string
	}{
		{[]string{"--hold-out", "2"}, "--hold-out 2: want a share"},
		{[]string{"--hold-out", "-0.5"}, "--hold-out -0.5"},
		{[]string{"--hold-out", "NaN"}, "--hold-out NaN"},
		{[]string{"--fit-share", "1"}, "--fit-share 1"},
		{[]string{"--folds", "0"}, "--folds 0: want at least 1"},
		{[]string{"--max-per-session", "-1"}, "--max-per-session -1"},
		{[]string{"--min-sessions", "0"}, "--min-sessions 0"},
		{[]string{"--shortcut-min-count", "0"}, "--shortcut-min-count 0"},
		{[]string{"--shortcut-min-share", "1.5"}, "--shortcut-min-share 1.5"},
		{[]string{"--correction-window", "-1m"}, "--correction-window -1m0s"},
		{[]string{"--guard-hit", "-0.1"}, "--guard-hit -0.1"},
		{[]string{"--keep-versions", "-2"}, "--keep-versions -2"},
		{[]string{"--since", "24h"}, "--since selects from the AUDIT stream"},
	} {
		root := newRoot()
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		// The files need not exist: the flags are checked first.
		root.SetArgs(append([]string{"train", "--tools", "no-such-tools.jsonl", "--audit", "no-such-audit.jsonl", "--out", t.TempDir()}, tt.args...))
		if err := root.Execute(); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("train %v: error %v, want %q", tt.args, err, tt.err)
		}
	}
	// In range, the check passes (and the missing registry is what fails).
	root := newRoot()
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	root.SetArgs([]string{"train", "--tools", "no-such-tools.jsonl", "--audit", "no-such-audit.jsonl", "--out", t.TempDir(), "--hold-out", "0.2", "--folds", "1", "--shortcut-min-share", "1", "--keep-versions", "0"})
	if err := root.Execute(); err == nil || !strings.Contains(err.Error(), "no-such-tools.jsonl") {
		t.Errorf("train with flags in range: %v, want the missing registry", err)
	}
}

// train's help names the exit statuses a batch job tells outcomes by,
// and the guard's refusal is the one it says (exitCode 3).
func TestTrainHelpNamesItsExitStatuses(t *testing.T) {
	out, _, err := runRoot("train", "--help")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "3 when the guard refuses it") || exitCode(3).Error() == "" {
		t.Errorf("train --help does not say what exit 3 means:\n%s", out)
	}
}
