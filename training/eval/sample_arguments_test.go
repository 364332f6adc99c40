package eval

import (
	"context"
	"testing"

	"github.com/toolyard/toolyard/ops/sample"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/resolve"
	"github.com/toolyard/toolyard/workers/route"
)

// Floors of the resolver on testdata/sample_arguments.jsonl (plain
// requests written against the sample registry, gold calls with the
// defaults the call runs with), measured with
//
//	bin/toolyard eval resolve --tools ops/sample/tools.jsonl \
//	    --queries training/eval/testdata/sample_arguments.jsonl --gold-tool
//
// at 1.000 fill rate (130 of 130) and 1.000 exact match, 69 requests
// (0.929 and 0.864 before host, repository and channel shapes and glob
// descriptions were read). The 12 added on 2026-11-27 missed 6 values of
// 26 before the rules written for what they showed (colon_content, said,
// titled, named_it, moments' attendees): this set is where those rules
// were found, so it checks that they keep working, not how well they
// generalise (Seal-Tools does: 327 → 328 of 370, and 337 since stop 36's
// listed values). A little below, so that
// a change that loses one request shows.
const (
	sampleArgsMinFill  = 0.97
	sampleArgsMinExact = 0.95
)

// TestSampleArguments resolves every request of the set against its gold
// tool and checks the fill rate (gold arguments given a value), exact
// matches, and that no stated value is left unmapped.
func TestSampleArguments(t *testing.T) {
	tools, err := sample.Tools()
	if err != nil {
		t.Fatal(err)
	}
	qs, err := LoadQueries("testdata/sample_arguments.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 40 {
		t.Fatalf("%d requests; the set should hold at least 40", len(qs))
	}
	byID := map[string]schemas.Manifest{}
	for _, m := range tools {
		byID[m.ID] = m
	}
	covered := map[string]bool{}
	for _, q := range qs {
		if len(q.GoldCalls) != 1 {
			t.Fatalf("%s: %d gold calls, want 1", q.ID, len(q.GoldCalls))
		}
		if _, ok := byID[q.GoldCalls[0].Tool]; !ok {
			t.Fatalf("%s: gold tool %s is not a sample tool", q.ID, q.GoldCalls[0].Tool)
		}
		covered[q.GoldCalls[0].Tool] = true
	}
	if len(covered) != len(tools) {
		t.Errorf("the set covers %d of the %d sample tools", len(covered), len(tools))
	}
	engine, err := discover.New(tools, discover.WithMode(discover.ModeKeyword))
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	cfg := ResolveConfig{Search: engine, Tools: byID, Resolve: resolve.Resolve, Partial: resolve.ErrorArgs,
		Thresholds: route.DefaultThresholds(), K: 5, GoldTool: true}
	rep, err := Resolution(context.Background(), cfg, qs)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("sample arguments: %d requests, fill rate %.3f (%d of %d), exact match %.3f, F1 %.3f, unmapped %d values in %d calls",
		rep.Calls, rep.FillRate, rep.Filled, rep.GoldArgs, rep.ArgExact, rep.ArgF1, rep.Unmapped.Values, rep.Unmapped.Calls)
	if rep.FillRate < sampleArgsMinFill {
		t.Errorf("fill rate %.3f, below the floor %.2f", rep.FillRate, sampleArgsMinFill)
	}
	if rep.ArgExact < sampleArgsMinExact {
		t.Errorf("exact match %.3f, below the floor %.2f", rep.ArgExact, sampleArgsMinExact)
	}
	if rep.Unmapped.Values != 0 {
		t.Errorf("%d stated values left unmapped in plain requests whose values the tools all take", rep.Unmapped.Values)
	}
}
