package main

import (
	"io"
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
