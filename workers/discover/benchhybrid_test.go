package discover

import (
	"context"
	"slices"
	"testing"
)

// hybridOutcome is the top candidate of each query.
func hybridTops(t *testing.T, e *Engine, qs []benchQuery) (conf []float64, right []bool, ranked [][]string) {
	t.Helper()
	for _, q := range qs {
		cs, err := e.Search(context.Background(), q.Query, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		c, ok := 0.0, false
		if len(cs) > 0 {
			c, ok = cs[0].Confidence, slices.Contains(q.GoldToolIDs, cs[0].ToolID)
		}
		conf, right, ranked = append(conf, c), append(right, ok), append(ranked, ids(cs))
	}
	return conf, right, ranked
}

// The hybrid engine's reported figures; floors a little under what it
// reaches, so a regression fails. Skips without the bench data or vectors.
func TestBenchHybridMetatool(t *testing.T) {
	e, qs := hybridBench(t, "metatool")
	conf, right, ranked := hybridTops(t, e, qs)
	h, r5 := hitRecall(qs, ranked)
	act, actRight := 0, 0
	for i, c := range conf {
		if c >= 0.85 {
			act++
			if right[i] {
				actRight++
			}
		}
	}
	share, prec := float64(act)/float64(len(qs)), float64(actRight)/float64(max(1, act))
	t.Logf("metatool/queries.dev hybrid: hit@1 %.3f recall@5 %.3f ECE %.3f activated %.3f right %.3f", h, r5, ece(conf, right), share, prec)
	if h < 0.465 || r5 < 0.69 {
		t.Errorf("hit@1 %.3f recall@5 %.3f; want >= 0.465, 0.69 (keyword alone: 0.436, 0.632)", h, r5)
	}
	// The default calibration is fitted on five registries at once
	// (DefaultCalibration): it holds on small registries at some cost
	// here, where default-13's activations (20.0% of the queries) are
	// right 88.5% of the time (default-5, fitted on this registry, 95.5%
	// of a smaller share, ECE 0.012). What must hold anywhere is the
	// tier's meaning: activated means right at least as often as the 0.85
	// threshold says.
	if x := ece(conf, right); x > 0.12 {
		t.Errorf("ECE %.3f, want <= 0.12", x)
	}
	if share < 0.19 || prec < 0.87 {
		t.Errorf("activated %.3f of queries, %.3f right; want >= 0.19 and >= 0.87", share, prec)
	}

	aw := loadQueries(t, needBench(t, "metatool", "awareness.dev.jsonl"))
	aconf, _, _ := hybridTops(t, e, aw)
	need := make([]bool, len(aw))
	for i, q := range aw {
		need[i] = q.NeedsTool == nil || *q.NeedsTool
	}
	a := auroc(aconf, need)
	t.Logf("metatool/awareness.dev hybrid: AUROC %.3f", a)
	// default-11's need factor is fitted across registries: 0.830 here
	// (default-5, fitted on this set, 0.840).
	if a < 0.82 {
		t.Errorf("awareness AUROC %.3f, want >= 0.82 (keyword alone: 0.718)", a)
	}
}

func TestBenchHybridSealtools(t *testing.T) {
	e, qs := hybridBench(t, "sealtools")
	conf, right, ranked := hybridTops(t, e, qs)
	h, r5 := hitRecall(qs, ranked)
	t.Logf("sealtools/queries.dev hybrid: hit@1 %.3f recall@5 %.3f ECE %.3f", h, r5, ece(conf, right))
	if h < 0.955 || r5 < 0.88 {
		t.Errorf("hit@1 %.3f recall@5 %.3f; want >= 0.955, 0.88", h, r5)
	}
}
