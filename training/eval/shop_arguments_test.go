package eval

import (
	"context"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/resolve"
	"github.com/toolyard/toolyard/workers/route"
)

// Floors of the resolver on testdata/shop_arguments.jsonl (41 plain
// requests to the e-commerce back office and CRM of
// testdata/shop_tools.jsonl, gold calls with the stated values only),
// measured with
//
//	bin/toolyard eval resolve --tools training/eval/testdata/shop_tools.jsonl \
//	    --queries training/eval/testdata/shop_arguments.jsonl --gold-tool
//
// at 0.925 fill rate (111 of 120), 0.805 exact match, F1 0.961 (P 1.000),
// 5 values unmapped; 0.750 (90 of 120), 0.439, F1 0.800 (P 0.933) and 15
// unmapped before the rules written for what it showed (enum_phrases,
// bounds, flags, marked, full_names, spaced_phones, the number sign, lead-
// ins of titles and colons, number words left over). This set is where
// those rules were found, so it checks that they keep working, not how
// well they generalise. A little below, so that a change that loses one
// request shows.
const (
	shopArgsMinFill     = 0.90
	shopArgsMinExact    = 0.77
	shopArgsMinPrec     = 0.98
	shopArgsMaxUnmapped = 6
)

// TestShopArguments resolves every request of the set against its gold
// tool and checks the fill rate, exact matches, the precision of what was
// filled (a wrong value runs) and how many stated values went nowhere.
func TestShopArguments(t *testing.T) {
	tools, err := registry.LoadFile("testdata/shop_tools.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	qs, err := LoadQueries("testdata/shop_arguments.jsonl")
	if err != nil {
		t.Fatal(err)
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
			t.Fatalf("%s: gold tool %s is not a shop tool", q.ID, q.GoldCalls[0].Tool)
		}
		covered[q.GoldCalls[0].Tool] = true
	}
	if len(covered) != len(tools) {
		t.Errorf("the set covers %d of the %d shop tools", len(covered), len(tools))
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
	t.Logf("shop arguments: %d requests, fill rate %.3f (%d of %d), exact match %.3f, F1 %.3f (P %.3f), unmapped %d values in %d calls",
		rep.Calls, rep.FillRate, rep.Filled, rep.GoldArgs, rep.ArgExact, rep.ArgF1, rep.Args.Precision(), rep.Unmapped.Values, rep.Unmapped.Calls)
	if rep.FillRate < shopArgsMinFill {
		t.Errorf("fill rate %.3f, below the floor %.2f", rep.FillRate, shopArgsMinFill)
	}
	if rep.ArgExact < shopArgsMinExact {
		t.Errorf("exact match %.3f, below the floor %.2f", rep.ArgExact, shopArgsMinExact)
	}
	if rep.Args.Precision() < shopArgsMinPrec {
		t.Errorf("argument precision %.3f, below the floor %.2f: a value filled is wrong", rep.Args.Precision(), shopArgsMinPrec)
	}
	if rep.Unmapped.Values > shopArgsMaxUnmapped {
		t.Errorf("%d stated values unmapped, more than %d", rep.Unmapped.Values, shopArgsMaxUnmapped)
	}
}
