package eval

import (
	"context"
	"testing"

	"github.com/toolyard/toolyard/ops/sample"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/resolve"
	"github.com/toolyard/toolyard/workers/route"
)

// argumentSet is a registry with plain requests written for it and their
// gold calls, and the floors the resolver must keep on it: a little below
// what it reaches, so that a change that loses one request shows.
type argumentSet struct {
	name    string
	tools   func() ([]schemas.Manifest, error)
	queries string
	// minFill and minExact floor the fill rate and exact matches;
	// minPrecision the share of placed values that are right (a wrong
	// value runs); maxUnmapped the stated values placed nowhere.
	minFill, minExact, minPrecision float64
	maxUnmapped                     int
	// minRequests is how many requests the set must hold.
	minRequests int
}

func registryFile(path string) func() ([]schemas.Manifest, error) {
	return func() ([]schemas.Manifest, error) { return registry.LoadFile(path) }
}

var argumentSets = []argumentSet{
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
	{name: "sample", tools: sample.Tools, queries: "testdata/sample_arguments.jsonl",
		minFill: 0.97, minExact: 0.95, minPrecision: 0.95, maxUnmapped: 0, minRequests: 40},
	// Floors of the resolver on testdata/shop_arguments.jsonl (41 plain
	// requests to the e-commerce back office and CRM of
	// testdata/shop_tools.jsonl, gold calls with the stated values only),
	// measured with
	//
	//	bin/toolyard eval resolve --tools training/eval/testdata/shop_tools.jsonl \
	//	    --queries training/eval/testdata/shop_arguments.jsonl --gold-tool
	//
	// at 0.950 fill rate (114 of 120), 0.878 exact match, F1 0.974 (P 1.000)
	// (0.925 and 0.805 before a currency's sign, a percentage's kind and
	// "let the customer know" were read, 2026-11-27); 0.750 (90 of 120), 0.439, F1 0.800 (P 0.933) and 15
	// unmapped before the rules written for what it showed (enum_phrases,
	// bounds, flags, marked, full_names, spaced_phones, the number sign, lead-
	// ins of titles and colons, number words left over). This set is where
	// those rules were found, so it checks that they keep working, not how
	// well they generalise. A little below, so that a change that loses one
	// request shows.
	{name: "shop", tools: registryFile("testdata/shop_tools.jsonl"), queries: "testdata/shop_arguments.jsonl",
		minFill: 0.93, minExact: 0.85, minPrecision: 0.98, maxUnmapped: 6, minRequests: 40},
	// Floors of the resolver on testdata/devops_arguments.jsonl: plain
	// requests an engineer or an agent writes to a DevOps registry of its own
	// (testdata/devops_tools.jsonl: pods, logs, deployments, pipelines, pull
	// requests, branches, instances, DNS, buckets, alerts, metrics, on-call),
	// gold calls with the values stated only. Measured with
	//
	//	bin/toolyard eval resolve --tools training/eval/testdata/devops_tools.jsonl \
	//	    --queries training/eval/testdata/devops_arguments.jsonl --gold-tool
	//
	// at 0.923 fill rate (96 of 104), 0.829 exact match, F1 0.960 (P 1.000,
	// R 0.923) since the scopes rule (2026-11-27, stop 38: "in eu-west-2",
	// "in kube-system"; 0.865 and 0.732 before); 0.567 (59 of 104), 0.268 and F1 0.613 (P 0.847) before the
	// rules written for what it showed (refs, numbered, flags, enum_phrases;
	// bare names after their noun, one-word names, the tool's verb written as
	// two words, titles as sentences, an article that is no enum code):
	// those were found here, so the set checks that they keep working; the
	// rest is left missing and asked for, never guessed. A little below, so
	// that a change that loses one request shows; and no wrong value at all.
	{name: "devops", tools: registryFile("testdata/devops_tools.jsonl"), queries: "testdata/devops_arguments.jsonl",
		minFill: 0.90, minExact: 0.80, minPrecision: 1, maxUnmapped: 6, minRequests: 40},
}

// TestArgumentSets resolves every request of each set against its gold
// tool and checks that the set covers every tool, and the fill rate, exact
// matches, the precision of what was placed, and the stated values placed
// nowhere against the set's floors.
func TestArgumentSets(t *testing.T) {
	for _, set := range argumentSets {
		t.Run(set.name, func(t *testing.T) { checkArgumentSet(t, set) })
	}
}

func checkArgumentSet(t *testing.T, set argumentSet) {
	tools, err := set.tools()
	if err != nil {
		t.Fatal(err)
	}
	qs, err := LoadQueries(set.queries)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < set.minRequests {
		t.Fatalf("%d requests; the set should hold at least %d", len(qs), set.minRequests)
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
			t.Fatalf("%s: gold tool %s is not in the registry", q.ID, q.GoldCalls[0].Tool)
		}
		covered[q.GoldCalls[0].Tool] = true
	}
	if len(covered) != len(tools) {
		t.Errorf("the set covers %d of the %d tools", len(covered), len(tools))
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
	prec := rep.ArgsRightTool.Precision()
	t.Logf("%s arguments: %d requests, fill rate %.3f (%d of %d), exact match %.3f, F1 %.3f (P %.3f on right tools), unmapped %d values in %d calls",
		set.name, rep.Calls, rep.FillRate, rep.Filled, rep.GoldArgs, rep.ArgExact, rep.ArgF1, prec, rep.Unmapped.Values, rep.Unmapped.Calls)
	if rep.FillRate < set.minFill {
		t.Errorf("fill rate %.3f, below the floor %.2f", rep.FillRate, set.minFill)
	}
	if rep.ArgExact < set.minExact {
		t.Errorf("exact match %.3f, below the floor %.2f", rep.ArgExact, set.minExact)
	}
	if prec < set.minPrecision {
		t.Errorf("argument precision %.3f, below the floor %.2f: %d values placed that the gold calls do not hold (a wrong value runs)", prec, set.minPrecision, rep.ArgsRightTool.FP)
	}
	if rep.Unmapped.Values > set.maxUnmapped {
		t.Errorf("%d stated values placed nowhere, more than %d", rep.Unmapped.Values, set.maxUnmapped)
	}
}
