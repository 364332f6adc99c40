//go:build experiment

package learn

// Recall@5 experiments (training/README.md "Ranking: recall@5"): the same
// rows as TestExperiment, the weights fitted on the 50–90 % tenths of
// LEARNQ_ROWS (the registry's best 50, as training fits) under other
// selection objectives or with more usage terms, scored on the latest tenth
// of LEARNQ_ROWS and of LEARNQ_ROWS_POOL (the whole pool a search ranks).
// The rows, dumped as experiment_dump_test.go says (LEARNQ_FROM=5; once
// with LEARNQ_POOL=-1 for the whole pool, and each with
// LEARNQ_USAGE_ENCODER=use-lite for the usage encoder), then:
//
//	LEARNQ_ROWS=/tmp/rows.jsonl LEARNQ_ROWS_POOL=/tmp/rows-pool.jsonl \
//	  go test -tags experiment -run 'TestExperimentRecall' -v ./training/learn/
//
// LEARNQ_FIT_POOL=1 fits on the whole pool's rows instead.

import (
	"fmt"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/toolyard/toolyard/workers/discover"
)

// counts are a ranking's right answers at 1 and within 5, and its
// reciprocal ranks, over some rows.
type counts struct{ hit, r5, mrr float64 }

// objective orders two weight settings' counts on the fitting rows: > 0
// when a is better.
type objective struct {
	name string
	cmp  func(a, b counts, n float64) int
}

var objectives = []objective{
	{"hit then MRR (training's)", func(a, b counts, _ float64) int {
		if c := cmpf(a.hit, b.hit); c != 0 {
			return c
		}
		return cmpf(a.mrr, b.mrr)
	}},
	{"MRR", func(a, b counts, _ float64) int { return cmpf(a.mrr, b.mrr) }},
	{"hit + R@5", func(a, b counts, _ float64) int { return cmpf(a.hit+a.r5, b.hit+b.r5) }},
	{"hit + R@5/2", func(a, b counts, _ float64) int { return cmpf(a.hit+a.r5/2, b.hit+b.r5/2) }},
	{"hit + R@5 + MRR", func(a, b counts, _ float64) int { return cmpf(a.hit+a.r5+a.mrr, b.hit+b.r5+b.mrr) }},
	{"R@5 then hit", func(a, b counts, _ float64) int {
		if c := cmpf(a.r5, b.r5); c != 0 {
			return c
		}
		return cmpf(a.hit, b.hit)
	}},
}

// frow is a row as a matrix: each candidate's term values, fused first.
type frow struct {
	x    [][]float64
	gold int // index of the right tool, -1 when not pooled
}

// term is one additive ranking term of a candidate in its row.
type term struct {
	name string
	f    func(r xrow, i int) float64
}

func signalTerm(name string) term {
	return term{name, func(r xrow, i int) float64 { return r.cands[i].Signals[name] }}
}

// rankTerm is 1/rank of the candidate among the row's candidates by a
// signal (0 when the signal is 0): credit by position, however close the
// values.
func rankTerm(name, signal string) term {
	return term{name, func(r xrow, i int) float64 {
		v := r.cands[i].Signals[signal]
		if v <= 0 {
			return 0
		}
		rank := 1
		for j, c := range r.cands {
			if o := c.Signals[signal]; o > v || o == v && j < i {
				rank++
			}
		}
		return 1 / float64(rank)
	}}
}

// topTerm is 1 when the candidate is among the row's best n by a signal.
func topTerm(name, signal string, n int) term {
	rt := rankTerm("", signal)
	return term{name, func(r xrow, i int) float64 { return b2f(rt.f(r, i) >= 1/float64(n)) }}
}

var baseTerms = []term{signalTerm(discover.FeatureFused), signalTerm(discover.FeatureUsageClass), signalTerm(discover.FeatureUsageText),
	signalTerm(discover.FeatureUsageTextVote), signalTerm(discover.FeatureUsageNear), signalTerm(discover.FeatureUsageVote)}

func matrix(rs []xrow, ts []term) []frow {
	out := make([]frow, len(rs))
	for k, r := range rs {
		fr := frow{gold: slices.IndexFunc(r.cands, func(c discover.Explained) bool { return c.ToolID == r.gold })}
		for i := range r.cands {
			x := make([]float64, len(ts))
			for j, t := range ts {
				x[j] = t.f(r, i)
			}
			fr.x = append(fr.x, x)
		}
		out[k] = fr
	}
	return out
}

// goldRank is the right tool's 0-based position under w (ties keep the
// rows' order, as ranked does), -1 when not pooled.
func goldRank(r frow, w []float64) int {
	if r.gold < 0 {
		return -1
	}
	return placeOf(r.gold, len(r.x), func(i int) float64 {
		z := 0.0
		for j, v := range r.x[i] {
			z += w[j] * v
		}
		return z
	})
}

func countAll(rs []frow, w []float64) counts {
	var c counts
	for _, r := range rs {
		i := goldRank(r, w)
		if i < 0 {
			continue
		}
		c.mrr += 1 / float64(i+1)
		if i == 0 {
			c.hit++
		}
		if i < 5 {
			c.r5++
		}
	}
	return c
}

// fitGeneric is fitWeights over any terms (the first, fused, held at 1)
// under an objective.
func fitGeneric(rs []frow, n int, obj objective, grid []float64) []float64 {
	w := make([]float64, n)
	w[0] = 1
	return fitGenericFrom(rs, w, obj, grid)
}

func usageWeightsOf(w []float64) discover.UsageWeights {
	return discover.UsageWeights{Class: w[1], Text: w[2], TextVote: w[3], Near: w[4], Vote: w[5]}
}

// TestExperimentRecallObjectives fits training's five weights under each
// objective and scores them with the calibration fitted under them.
func TestExperimentRecallObjectives(t *testing.T) {
	all, pool := recallRows(t)
	fit, test := segs(all, 5, 8), segs(all, 9, 9)
	fm := matrix(fit, baseTerms)
	for _, obj := range objectives {
		w := usageWeightsOf(fitGeneric(fm, len(baseTerms), obj, weightGrid))
		calib, _, err := fitCalibration(plain(fit), w, discover.DefaultCalibration())
		if err != nil {
			t.Fatal(err)
		}
		conf := func(r xrow, rk []discover.Explained) float64 { return calib.Confidence(topSignals(rk, w)) }
		t.Logf("%-26s weights %+v", obj.name, w)
		t.Logf("   best 50:    %v", score(test, w, conf))
		if pool != nil {
			t.Logf("   whole pool: %v", score(pool, w, conf))
		}
	}
}

// TestExperimentRecallTerms adds rank-based usage terms to the five and
// fits them under training's objective and under hit + R@5.
func TestExperimentRecallTerms(t *testing.T) {
	all, pool := recallRows(t)
	fit, test := segs(all, 5, 8), segs(all, 9, 9)
	extras := [][]term{
		nil,
		{rankTerm("near_rr", discover.FeatureUsageNear)},
		{rankTerm("class_rr", discover.FeatureUsageClass)},
		{rankTerm("near_rr", discover.FeatureUsageNear), rankTerm("class_rr", discover.FeatureUsageClass), rankTerm("text_rr", discover.FeatureUsageText)},
		{topTerm("near_top5", discover.FeatureUsageNear, 5), topTerm("class_top5", discover.FeatureUsageClass, 5)},
		{rankTerm("fused_rr", discover.FeatureFused)},
		{term{"few_intents", func(r xrow, i int) float64 {
			return 1 - math.Log1p(float64(min(r.counts[r.cands[i].ToolID], maxPerTool)))/math.Log1p(maxPerTool)
		}}},
		{temperedClass(3)},
		{temperedClass(10)},
		{temperedClass(30)},
		{term{"log_class", func(r xrow, i int) float64 {
			return math.Log10(r.cands[i].Signals[discover.FeatureUsageClass]+1e-3)/3 + 1
		}}},
	}
	grid := []float64{0, 0.25, 0.5, 1, 2, 4, 6, 8}
	for _, ex := range extras {
		ts := append(slices.Clone(baseTerms), ex...)
		fm, tm := matrix(fit, ts), matrix(test, ts)
		var pm []frow
		if pool != nil {
			pm = matrix(pool, ts)
		}
		names := ""
		for _, t := range ex {
			names += t.name + " "
		}
		for _, obj := range []objective{objectives[0], objectives[2]} {
			w := fitGeneric(fm, len(ts), obj, grid)
			n := float64(len(tm))
			c := countAll(tm, w)
			line := fmt.Sprintf("+[%s] %s w %v: best 50 hit %.3f R@5 %.3f", names, obj.name, w[1:], c.hit/n, c.r5/n)
			if pm != nil {
				c = countAll(pm, w)
				line += fmt.Sprintf("; whole pool hit %.3f R@5 %.3f", c.hit/float64(len(pm)), c.r5/float64(len(pm)))
			}
			t.Log(line)
		}
	}
}

func recallRows(t *testing.T) (all, pool []xrow) {
	path := os.Getenv("LEARNQ_ROWS")
	if path == "" {
		t.Skip("experiment: set LEARNQ_ROWS (and LEARNQ_ROWS_POOL)")
	}
	all = loadDump(t, path)
	if p := os.Getenv("LEARNQ_ROWS_POOL"); p != "" {
		whole := loadDump(t, p)
		pool = segs(whole, 9, 9)
		// LEARNQ_FIT_POOL fits on the whole pool's rows too (the
		// latest tenth of LEARNQ_ROWS then scored with them).
		if os.Getenv("LEARNQ_FIT_POOL") != "" {
			all = whole
		}
	}
	return all, pool
}

// TestExperimentRecallMisses describes the latest tenth's rows whose right
// tool is pooled but not within 5 under training's weights: where it sits
// and which of its usage signals are 0.
func TestExperimentRecallMisses(t *testing.T) {
	all, pool := recallRows(t)
	if pool == nil {
		pool = segs(all, 9, 9)
	}
	w := fitWeights(plain(segs(all, 5, 8)))
	var ranks []int
	zero := map[string]int{}
	var noHist, fewHist, notPooled int
	for _, r := range pool {
		rk := ranked(r.row, w)
		i := slices.IndexFunc(rk, func(c discover.Explained) bool { return c.ToolID == r.gold })
		if i < 0 {
			notPooled++
			continue
		}
		if i < 5 {
			continue
		}
		ranks = append(ranks, i)
		g := rk[i].Signals
		for _, f := range []string{discover.FeatureUsageClass, discover.FeatureUsageText, discover.FeatureUsageTextVote, discover.FeatureUsageNear, discover.FeatureUsageVote} {
			if g[f] == 0 {
				zero[f]++
			}
		}
		switch {
		case r.goldCount == 0:
			noHist++
		case r.goldCount < 5:
			fewHist++
		}
		t.Logf("rank %d gold hist %d fused %.2f class %.3f text %.2f tvote %.2f near %.2f vote %.2f | top %s hist %d fused %.2f class %.3f near %.2f",
			i, r.goldCount, g[discover.FeatureFused], g[discover.FeatureUsageClass], g[discover.FeatureUsageText], g[discover.FeatureUsageTextVote], g[discover.FeatureUsageNear], g[discover.FeatureUsageVote],
			rk[0].ToolID, r.counts[rk[0].ToolID], rk[0].Signals[discover.FeatureFused], rk[0].Signals[discover.FeatureUsageClass], rk[0].Signals[discover.FeatureUsageNear])
	}
	slices.Sort(ranks)
	t.Logf("%d rows: not pooled %d, beyond 5 %d (ranks %v); of those gold without history %d, 1-4 examples %d; usage signals at 0: %v", len(pool), notPooled, len(ranks), ranks, noHist, fewHist, zero)
}

// TestExperimentRecallConstrained fits training's weights, then, from
// them, the weights with the best R@5 (then MRR) whose hit@1 on the fitting
// rows is within tol of the best found (LEARNQ_TOL rows' share, several).
func TestExperimentRecallConstrained(t *testing.T) {
	all, pool := recallRows(t)
	fit, test := segs(all, 5, 8), segs(all, 9, 9)
	fm := matrix(fit, baseTerms)
	n := float64(len(fm))
	w0 := fitGeneric(fm, len(baseTerms), objectives[0], weightGrid)
	h0 := countAll(fm, w0).hit
	for _, tol := range []float64{0, 0.0025, 0.005, 0.01} {
		obj := objective{fmt.Sprintf("R@5 within hit@1 -%.4f", tol), func(a, b counts, n float64) int {
			okA, okB := a.hit >= h0-tol*n, b.hit >= h0-tol*n
			if okA != okB {
				if okA {
					return 1
				}
				return -1
			}
			if c := cmpf(a.r5, b.r5); c != 0 {
				return c
			}
			return cmpf(a.mrr, b.mrr)
		}}
		w := fitGenericFrom(fm, w0, obj, weightGrid)
		uw := usageWeightsOf(w)
		c := countAll(fm, w)
		calib, _, err := fitCalibration(plain(fit), uw, discover.DefaultCalibration())
		if err != nil {
			t.Fatal(err)
		}
		conf := func(r xrow, rk []discover.Explained) float64 { return calib.Confidence(topSignals(rk, uw)) }
		t.Logf("%s: weights %+v fit hit %.3f R@5 %.3f", obj.name, uw, c.hit/n, c.r5/n)
		t.Logf("   best 50:    %v", score(test, uw, conf))
		if pool != nil {
			t.Logf("   whole pool: %v", score(pool, uw, conf))
		}
	}
}

// fitGenericFrom is coordinate ascent over the grid, one term at a time
// (the first, fused, held), from the weights w0, under an objective.
func fitGenericFrom(rs []frow, w0 []float64, obj objective, grid []float64) []float64 {
	w := slices.Clone(w0)
	best := countAll(rs, w)
	for range 3 {
		changed := false
		for j := 1; j < len(w); j++ {
			keep := w[j]
			for _, v := range grid {
				w[j] = v
				if c := countAll(rs, w); obj.cmp(c, best, float64(len(rs))) > 0 {
					best, keep, changed = c, v, true
				}
			}
			w[j] = keep
		}
		if !changed {
			break
		}
	}
	return w
}

// temperedClass is the usage classifier's probability tempered by T and
// relative to the row's most probable tool, exp((ln p − ln p_max)/T): naive
// Bayes puts nearly all the mass on one tool, so positions 2–5 get almost
// nothing from usage_class itself.
func temperedClass(T float64) term {
	return term{fmt.Sprintf("class^1/%g", T), func(r xrow, i int) float64 {
		p := r.cands[i].Signals[discover.FeatureUsageClass]
		if p <= 0 {
			return 0
		}
		top := 0.0
		for _, c := range r.cands {
			top = math.Max(top, c.Signals[discover.FeatureUsageClass])
		}
		return math.Exp((math.Log(p) - math.Log(top)) / T)
	}}
}

// TestExperimentRecallCeiling fits the weights on the latest tenth itself
// (whole pool) for R@5 then hit@1: not a setting, a bound on what any
// weights of these terms could reach on those rows.
func TestExperimentRecallCeiling(t *testing.T) {
	_, pool := recallRows(t)
	if pool == nil {
		t.Skip("experiment: set LEARNQ_ROWS_POOL")
	}
	pm := matrix(pool, baseTerms)
	grid := []float64{0, 0.25, 0.5, 1, 2, 3, 4, 6, 8, 12, 16}
	for _, obj := range []objective{objectives[0], objectives[5], objectives[2]} {
		w := fitGeneric(pm, len(baseTerms), obj, grid)
		c, n := countAll(pm, w), float64(len(pm))
		t.Logf("fitted on the test rows, %s: w %v hit %.3f R@5 %.3f", obj.name, w[1:], c.hit/n, c.r5/n)
	}
}
