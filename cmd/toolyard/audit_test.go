package main

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/training/learn"
)

// A window of the AUDIT stream that can hold nothing is an error naming
// why, not "exported 0 records" as if the stream were empty.
func TestAuditWindow(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		since, until string
		err          string
	}{
		{"", "", ""},
		{"24h", "", ""},
		{"48h", "24h", ""},
		{"2026-11-01T00:00:00Z", "2026-11-08T00:00:00Z", ""},
		{"2026-11-27T11:59:00Z", "", ""},
		{"2026-11-28T00:00:00Z", "", "--since 2026-11-28T00:00:00Z is in the future"},
		{"2026-11-08T00:00:00Z", "2026-11-01T00:00:00Z", "--until 2026-11-01T00:00:00Z is before --since 2026-11-08T00:00:00Z"},
		{"-5h", "", "--since: a duration back from now must be positive"},
		{"", "tomorrow", "--until: \"tomorrow\" is neither"},
	} {
		_, _, err := auditWindow(tt.since, tt.until, now)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("--since %q --until %q: %v, want %q", tt.since, tt.until, err, tt.err)
		}
	}
	// Durations count back from the real now: --since 24h --until 48h
	// ends before it starts.
	if _, _, err := auditWindow("24h", "48h", time.Now()); err == nil || !strings.Contains(err.Error(), "is before --since") {
		t.Errorf("--since 24h --until 48h: %v", err)
	}
}

// The commands that read the AUDIT stream check the window before they
// connect.
func TestAuditWindowCommands(t *testing.T) {
	for _, args := range [][]string{
		{"audit", "export", "--since", "2999-01-01T00:00:00Z"},
		{"audit", "export", "--since", "24h", "--until", "48h"},
		{"replay", "--tools", "t.jsonl", "--candidate", "c.json", "--report", "r", "--since", "2999-01-01T00:00:00Z"},
		{"train", "--since", "2999-01-01T00:00:00Z", "--tools", "t.jsonl"},
	} {
		root := newRoot()
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		// No server listens here: an error about the window comes first.
		root.SetArgs(append(args, "--nats", "nats://127.0.0.1:1"))
		err := root.Execute()
		if err == nil || !strings.Contains(err.Error(), "--until") && !strings.Contains(err.Error(), "in the future") {
			t.Errorf("%v: %v, want the window refused", args, err)
		}
	}
}

// An empty registry file is refused by the commands that measure, replay or
// train over it, before any work: every query "not found", every recorded
// answer "lost", or a training error about keyword-only discovery, said
// nothing about the file.
func TestEmptyToolsFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	empty := dir + "/tools.jsonl"
	if err := os.WriteFile(empty, []byte("\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	queries := dir + "/queries.jsonl"
	if err := os.WriteFile(queries, []byte(`{"id":"1","query":"anything at all","gold_tool_ids":["x/y"]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"eval", "discovery", "--tools", empty, "--queries", queries},
		{"eval", "resolve", "--tools", empty, "--queries", queries},
		{"replay", "--tools", empty, "--audit", queries, "--candidate", queries, "--report", dir + "/r"},
		{"train", "--tools", empty, "--audit", queries, "--out", dir + "/m"},
	} {
		root := newRoot()
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		root.SetArgs(args)
		if err := root.Execute(); err == nil || !strings.Contains(err.Error(), "holds no tools") {
			t.Errorf("%v: %v, want the empty registry refused", args[:2], err)
		}
	}
}

// audit import checks every file before importing any: a missing second
// file stopped the import after the first, with no count of what went in.
func TestAuditImportChecksEveryFileFirst(t *testing.T) {
	env := pipelinetest.Start(t)
	dir := t.TempDir()
	good := dir + "/audit.jsonl"
	if err := os.WriteFile(good, []byte(`{"timestamp":"2026-11-01T10:00:00Z","session_id":"s1","conversation_context":"","intent_expressed":"[TOOL: checksum of the tarball]","tool_id":"files/checksum","parameters":{},"result":"success"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, second := range []string{dir + "/missing.jsonl", dir} {
		root := newRoot()
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		root.SetArgs([]string{"audit", "import", "--nats", env.Server.ClientURL(), "--creds", pipelinetest.AdminCreds(env.Server.DataDir()), good, second})
		if err := root.Execute(); err == nil {
			t.Fatalf("import of %s succeeded", second)
		}
	}
	st, err := env.JS.Stream(context.Background(), pipeline.StreamAudit)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 0 {
		t.Errorf("%d records imported before the bad file was found", info.State.Msgs)
	}
}

// A file bad on every line lists the first maxListedBadLines and a count
// of the rest, not thousands of lines.
func TestListBadLines(t *testing.T) {
	for _, tt := range []struct {
		bad, lines int
		more       string
	}{
		{0, 0, ""}, {3, 3, ""}, {maxListedBadLines, maxListedBadLines, ""}, {maxListedBadLines + 7, maxListedBadLines + 1, "… and 7 more bad lines in f.jsonl"},
	} {
		var bad []learn.BadLine
		for i := range tt.bad {
			bad = append(bad, learn.BadLine{File: "f.jsonl", Line: i + 1, Err: errors.New("not a record")})
		}
		var b strings.Builder
		listBadLines(&b, "skipped:", "f.jsonl", bad)
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if b.Len() == 0 {
			lines = nil
		}
		if len(lines) != tt.lines || tt.more != "" && !strings.HasSuffix(lines[len(lines)-1], tt.more) {
			t.Errorf("%d bad lines: wrote %d lines, last %q; want %d, ending %q", tt.bad, len(lines), lines[max(len(lines)-1, 0):], tt.lines, tt.more)
		}
	}
}
