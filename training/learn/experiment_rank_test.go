//go:build experiment

package learn

import (
	"fmt"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/toolyard/toolyard/workers/discover"
)

type cfeat func(r xrow, c discover.Explained) []float64

func rankEval(rs []xrow, f cfeat, wt []float64) (hit, r5, r10 float64) {
	for _, r := range rs {
		type sc struct {
			id string
			s  float64
		}
		var ss []sc
		for _, c := range r.cands {
			z := 0.0
			for i, v := range f(r, c) {
				z += wt[i] * v
			}
			ss = append(ss, sc{c.ToolID, z})
		}
		slices.SortStableFunc(ss, func(a, b sc) int { return cmpf(b.s, a.s) })
		i := slices.IndexFunc(ss, func(x sc) bool { return x.id == r.gold })
		if i == 0 {
			hit++
		}
		if i >= 0 && i < 5 {
			r5++
		}
		if i >= 0 && i < 10 {
			r10++
		}
	}
	n := float64(len(rs))
	return hit / n, r5 / n, r10 / n
}

func fitPointwise(rs []xrow, f cfeat) []float64 {
	var xs [][]float64
	var ys []bool
	for _, r := range rs {
		for _, c := range r.cands {
			xs = append(xs, f(r, c))
			ys = append(ys, c.ToolID == r.gold)
		}
	}
	w, _, err := discover.FitLogistic(xs, ys, 1e-4)
	if err != nil {
		panic(err)
	}
	return w
}

func TestExperimentRank(t *testing.T) {
	path := os.Getenv("LEARNQ_ROWS")
	if path == "" {
		t.Skip("experiment: set LEARNQ_ROWS")
	}
	all := loadDump(t, path)
	test := segs(all, 9, 9)
	fr := segs(all, 5, 8)
	w := fitWeights(plain(fr))
	six := func(r xrow, c discover.Explained) []float64 {
		s := c.Signals
		return []float64{s[discover.FeatureFused], s[discover.FeatureUsageClass], s[discover.FeatureUsageText], s[discover.FeatureUsageTextVote], s[discover.FeatureUsageNear], s[discover.FeatureUsageVote]}
	}
	h, r5, r10 := rankEval(test, six, []float64{1, w.Class, w.Text, w.TextVote, w.Near, w.Vote})
	t.Logf("grid weights %+v: hit %.3f R@5 %.3f R@10 %.3f", w, h, r5, r10)
	pw := fitPointwise(fr, six)
	h, r5, r10 = rankEval(test, six, pw)
	t.Logf("pointwise six %v: hit %.3f R@5 %.3f R@10 %.3f", pw, h, r5, r10)
	more := func(r xrow, c discover.Explained) []float64 {
		s := c.Signals
		return append(six(r, c), math.Log1p(float64(r.counts[c.ToolID])), math.Log1p(s[discover.FeatureUsageClass]*100), s[discover.FeatureCosine], s[discover.FeatureCoverage], s[discover.FeatureSoftCoverage], s[discover.FeatureToolCoverage], s[discover.FeatureEncoderCosine])
	}
	pm := fitPointwise(fr, more)
	h, r5, r10 = rankEval(test, more, pm)
	t.Logf("pointwise more %v: hit %.3f R@5 %.3f R@10 %.3f", pm, h, r5, r10)
	lc := func(r xrow, c discover.Explained) []float64 {
		s := c.Signals
		return append(six(r, c), math.Log(s[discover.FeatureUsageClass]+1e-3))
	}
	pl := fitPointwise(fr, lc)
	h, r5, r10 = rankEval(test, lc, pl)
	t.Logf("pointwise six+logclass %v: hit %.3f R@5 %.3f R@10 %.3f", pl, h, r5, r10)
}

func TestExperimentSignals(t *testing.T) {
	path := os.Getenv("LEARNQ_ROWS")
	if path == "" {
		t.Skip("experiment: set LEARNQ_ROWS")
	}
	test := segs(loadDump(t, path), 9, 9)
	in := 0
	for _, r := range test {
		if slices.ContainsFunc(r.cands, func(c discover.Explained) bool { return c.ToolID == r.gold }) {
			in++
		}
	}
	t.Logf("pool recall %.3f", float64(in)/float64(len(test)))
	for _, f := range []string{discover.FeatureFused, discover.FeatureUsageClass, discover.FeatureUsageText, discover.FeatureUsageTextVote, discover.FeatureUsageNear, discover.FeatureUsageVote} {
		one := func(r xrow, c discover.Explained) []float64 { return []float64{c.Signals[f]} }
		h, r5, r10 := rankEval(test, one, []float64{1})
		t.Logf("%s alone: hit %.3f R@5 %.3f R@10 %.3f", f, h, r5, r10)
	}
}

func TestExperimentMix(t *testing.T) {
	a, b := os.Getenv("LEARNQ_ROWS"), os.Getenv("LEARNQ_ROWS_ENC")
	if a == "" || b == "" {
		t.Skip("experiment: set LEARNQ_ROWS, LEARNQ_ROWS_ENC")
	}
	da, db := loadDump(t, a), loadDump(t, b)
	if len(da) != len(db) {
		t.Fatal("row counts differ")
	}
	for i := range da {
		enc := map[string]discover.Explained{}
		for _, c := range db[i].cands {
			enc[c.ToolID] = c
		}
		for j, c := range da[i].cands {
			s := make(map[string]float64, len(c.Signals))
			for k, v := range c.Signals {
				s[k] = v
			}
			e := enc[c.ToolID].Signals
			s[discover.FeatureUsageNear], s[discover.FeatureUsageVote] = e[discover.FeatureUsageNear], e[discover.FeatureUsageVote]
			s[discover.FeatureUsageMargin], s[discover.FeatureUsageBest] = e[discover.FeatureUsageMargin], e[discover.FeatureUsageBest]
			da[i].cands[j].Signals = s
		}
	}
	test, fr := segs(da, 9, 9), segs(da, 5, 8)
	w := fitWeights(plain(fr))
	calib, _, err := fitCalibration(plain(fr), w, discover.DefaultCalibration())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("mixed: weights %+v test %v", w, score(test, w, func(r xrow, rk []discover.Explained) float64 { return calib.Confidence(topSignals(rk, w)) }))
}

func TestExperimentGrid(t *testing.T) {
	path := os.Getenv("LEARNQ_ROWS")
	if path == "" {
		t.Skip("experiment: set LEARNQ_ROWS")
	}
	all := loadDump(t, path)
	test, fr := segs(all, 9, 9), segs(all, 5, 8)
	keep := weightGrid
	defer func() { weightGrid = keep }()
	for _, g := range [][]float64{keep, {0, 0.25, 0.5, 1, 1.5, 2, 3, 4, 5, 6, 8, 10, 12, 16}} {
		weightGrid = g
		w := fitWeights(plain(fr))
		calib, _, err := fitCalibration(plain(fr), w, discover.DefaultCalibration())
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("grid %v: weights %+v test %v", g, w, score(test, w, func(r xrow, rk []discover.Explained) float64 { return calib.Confidence(topSignals(rk, w)) }))
	}
}

// TestExperimentPool: of the latest tenth's requests whose tool is not in
// the pool, how many had history for it (the usage side could propose
// them), and what the usage signals of the pool say.
func TestExperimentPool(t *testing.T) {
	path := os.Getenv("LEARNQ_ROWS")
	if path == "" {
		t.Skip("experiment: set LEARNQ_ROWS")
	}
	test := segs(loadDump(t, path), 9, 9)
	var missing, noHist, fewHist int
	for _, r := range test {
		if slices.ContainsFunc(r.cands, func(c discover.Explained) bool { return c.ToolID == r.gold }) {
			continue
		}
		missing++
		switch {
		case r.goldCount == 0:
			noHist++
		case r.goldCount < 5:
			fewHist++
		}
	}
	t.Logf("latest tenth %d rows: gold not in pool %d (%.3f); of them gold without history %d, with 1-4 examples %d", len(test), missing, float64(missing)/float64(len(test)), noHist, fewHist)
}

// TestExperimentWeights scores given usage weights (LEARNQ_W: class, text,
// text vote, near, vote) on the latest tenth, with the calibration fitted
// on the 50–90 % tenths under them.
func TestExperimentWeights(t *testing.T) {
	path, ws := os.Getenv("LEARNQ_ROWS"), os.Getenv("LEARNQ_W")
	if path == "" || ws == "" {
		t.Skip("experiment: set LEARNQ_ROWS, LEARNQ_W")
	}
	var w discover.UsageWeights
	if _, err := fmt.Sscanf(ws, "%g,%g,%g,%g,%g", &w.Class, &w.Text, &w.TextVote, &w.Near, &w.Vote); err != nil {
		t.Fatal(err)
	}
	all := loadDump(t, path)
	test, fr := segs(all, 9, 9), segs(all, 5, 8)
	calib, _, err := fitCalibration(plain(fr), w, discover.DefaultCalibration())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("weights %+v: fit %v", w, score(fr, w, func(r xrow, rk []discover.Explained) float64 { return calib.Confidence(topSignals(rk, w)) }))
	t.Logf("weights %+v: test %v", w, score(test, w, func(r xrow, rk []discover.Explained) float64 { return calib.Confidence(topSignals(rk, w)) }))
}
