package main

import (
	"io"
	"os"
	"slices"
	"strings"
	"testing"
)

// Flags the measurement cannot use are refused, not replaced by the
// defaults: with '--activate-threshold 5' or '--k 0' the eval printed the
// default figures as the ones asked for.
func TestEvalRefusesFlagsItWouldIgnore(t *testing.T) {
	files := []string{"--tools", "no-such-tools.jsonl", "--queries", "no-such-queries.jsonl"}
	for _, tt := range []struct {
		args []string
		err  string
	}{
		{[]string{"eval", "discovery", "--activate-threshold", "5"}, "activate threshold 5 is not in [0,1]"},
		{[]string{"eval", "discovery", "--activate-threshold", "0.2", "--weak-threshold", "0.6"}, "weak <= multiple <= activate"},
		{[]string{"eval", "discovery", "--k", "0"}, "--k 0: want at least 1"},
		{[]string{"eval", "resolve", "--weak-threshold", "-1"}, "weak threshold -1 is not in [0,1]"},
		{[]string{"eval", "resolve", "--k", "-3"}, "--k -3"},
		{[]string{"eval", "prefetch", "--k", "0"}, "--k 0"},
		{[]string{"eval", "prefetch", "--concurrency", "0"}, "--concurrency 0: want at least 1"},
		{[]string{"eval", "prefetch", "--search-latency", "1ms", "--search-latency-ms", "5"}, "give one"},
	} {
		root := newRoot()
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		root.SetArgs(append(tt.args, files...))
		if err := root.Execute(); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%v: %v, want %q", tt.args, err, tt.err)
		}
	}
}

// replay refuses the values its labels and worker pool would take for
// their defaults, before reading anything.
func TestReplayRefusesFlagsItWouldIgnore(t *testing.T) {
	base := []string{"replay", "--tools", "no-such-tools.jsonl", "--audit", "no-such-audit.jsonl", "--candidate", "c.json", "--report", t.TempDir()}
	for _, tt := range []struct {
		args []string
		err  string
	}{
		{[]string{"--correction-window", "-5m"}, "--correction-window -5m0s: want a positive duration"},
		{[]string{"--correction-window", "0s"}, "--correction-window 0s"},
		{[]string{"--parallel", "-4"}, "--parallel -4: want 1 or more"},
		{[]string{"--workers", "--shard-size", "0"}, "--shard-size 0: want at least 1"},
		{[]string{"--workers", "--shard-wait", "0s"}, "--shard-wait 0s"},
	} {
		root := newRoot()
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		root.SetArgs(append(base, tt.args...))
		if err := root.Execute(); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%v: %v, want %q", tt.args, err, tt.err)
		}
	}
}

// eval shortcuts --audit reads the files as train does: no valid record is
// an error, not "shortcuts 0".
func TestEvalShortcutsNeedsRecords(t *testing.T) {
	dir := t.TempDir()
	empty, queries := dir+"/audit.jsonl", dir+"/queries.jsonl"
	if err := os.WriteFile(empty, []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(queries, []byte(`{"id":"1","query":"anything","gold_tool_ids":["a/b"]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := newRoot()
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	root.SetArgs([]string{"eval", "shortcuts", "--audit", empty, "--queries", queries})
	if err := root.Execute(); err == nil || !strings.Contains(err.Error(), "no valid audit records") {
		t.Errorf("eval shortcuts on no records: %v", err)
	}
}

// eval shortcuts checks the ranges train checks, and takes train's
// --correction-window, before reading anything.
func TestEvalShortcutsRefusesFlagsOutOfRange(t *testing.T) {
	base := []string{"eval", "shortcuts", "--audit", "no-such-audit.jsonl", "--queries", "no-such-queries.jsonl"}
	for _, tt := range []struct {
		args []string
		err  string
	}{
		{[]string{"--correction-window", "0s"}, "--correction-window 0s: want a positive duration"},
		{[]string{"--shortcut-min-share", "2"}, "--shortcut-min-share 2: want a share above 0, at most 1"},
		{[]string{"--min-sessions", "0"}, "--min-sessions 0: want at least 1"},
	} {
		root := newRoot()
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		root.SetArgs(append(slices.Clone(base), tt.args...))
		if err := root.Execute(); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%v: %v, want %q", tt.args, err, tt.err)
		}
	}
}
