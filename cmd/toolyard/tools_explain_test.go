package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/workers/route"
)

// tools search --explain says why the top tool got its confidence, in text
// and as JSON, on a registry file (no server).
func TestToolsSearchExplains(t *testing.T) {
	needWordVectors(t)
	registry := filepath.Join("..", "..", "ops", "sample", "tools.jsonl")
	out, stderr, err := runRoot("tools", "search", "--explain", "--k", "3", "--registry", registry, "how much space is left on the disk")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []string{
		"CONFIDENCE", "system/disk_free", "Why system/disk_free is at", "which routes as ", "confidence model default-",
		"P(needs a tool)", "P(right | needs a tool) = σ(", "TERM", "cosine of the intent and tool vectors",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	out, stderr, err = runRoot("tools", "search", "--explain", "--json", "--k", "3", "--registry", registry, "how much space is left on the disk")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var why explained
	if err := json.Unmarshal([]byte(out), &why); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if th := route.DefaultThresholds(); why.Thresholds != th || why.Top == nil || why.Tier != th.Tier(why.Top.Confidence) {
		t.Errorf("--json: tier %q under %+v", why.Tier, why.Thresholds)
	}
	if len(why.Candidates) != 3 || why.Top == nil || why.Candidates[0].ToolID != "system/disk_free" || len(why.Top.Right) == 0 {
		t.Fatalf("--json: %+v", why)
	}
	if got := why.Top.PNeed * why.Top.PRight; why.Top.NeedTerm == nil && (got-why.Top.Confidence > 1e-9 || why.Top.Confidence-got > 1e-9) {
		t.Errorf("--json: P(need) %v × P(right) %v ≠ confidence %v", why.Top.PNeed, why.Top.PRight, why.Top.Confidence)
	}
}

// A near miss says which effect was asked for and which the tool names.
func TestToolsSearchExplainsANearMiss(t *testing.T) {
	needWordVectors(t)
	registry := filepath.Join("..", "..", "ops", "sample", "tools.jsonl")
	const request = "delete the slack message I just posted"
	out, stderr, err := runRoot("tools", "search", "--explain", "--k", "3", "--registry", registry, request)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if want := "The request asks to delete; slack/post_message names only create: a near miss"; !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
	out, stderr, err = runRoot("tools", "search", "--explain", "--json", "--k", "3", "--registry", registry, request)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var why explained
	if err := json.Unmarshal([]byte(out), &why); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if len(why.Candidates) == 0 || !slices.Equal(why.Asked, []string{"delete"}) || !slices.Equal(why.Candidates[0].Effects, []string{"create"}) ||
		why.Candidates[0].Signals["action_conflict"] != 1 {
		t.Errorf("--json: asked %q, top %+v", why.Asked, why.Candidates)
	}
}
