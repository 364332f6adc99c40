//go:build experiment

package learn

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/workers/discover"
)

type xrow struct {
	row
	seg, history int
	counts       map[string]int
	goldCount    int
}

func loadDump(t *testing.T, path string) []xrow {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []xrow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var d dumpRow
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		out = append(out, xrow{row: row{cands: d.Cands, gold: d.Gold}, seg: d.Seg, history: d.History, counts: d.Counts, goldCount: d.GoldCount})
	}
	return out
}

func segs(rs []xrow, from, to int) []xrow {
	return slices.DeleteFunc(slices.Clone(rs), func(r xrow) bool { return r.seg < from || r.seg > to })
}

func plain(rs []xrow) []row {
	out := make([]row, len(rs))
	for i, r := range rs {
		out[i] = r.row
	}
	return out
}

type xmetrics struct{ hit, r5, ece, act, prec float64 }

func (m xmetrics) String() string {
	return fmt.Sprintf("hit@1 %.3f R@5 %.3f ECE %.3f act %.1f%% prec %.3f", m.hit, m.r5, m.ece, 100*m.act, m.prec)
}

// score ranks rows under w and scores confidences conf(row, ranked).
func score(rs []xrow, w discover.UsageWeights, conf func(xrow, []discover.Explained) float64) xmetrics {
	var m xmetrics
	var cs []float64
	var ok []bool
	var act, actRight float64
	for _, r := range rs {
		rk := ranked(r.row, w)
		i := slices.IndexFunc(rk, func(c discover.Explained) bool { return c.ToolID == r.gold })
		if i == 0 {
			m.hit++
		}
		if i >= 0 && i < 5 {
			m.r5++
		}
		c := conf(r, rk)
		cs = append(cs, c)
		ok = append(ok, i == 0)
		if c >= 0.85 {
			act++
			if i == 0 {
				actRight++
			}
		}
	}
	n := float64(len(rs))
	m.hit, m.r5 = m.hit/n, m.r5/n
	m.ece = eval.ECE(cs, ok, 10)
	m.act = act / n
	if act > 0 {
		m.prec = actRight / act
	}
	return m
}

func reliability(rs []xrow, w discover.UsageWeights, conf func(xrow, []discover.Explained) float64) string {
	var n, c, a [10]float64
	for _, r := range rs {
		rk := ranked(r.row, w)
		p := conf(r, rk)
		b := min(int(p*10), 9)
		n[b]++
		c[b] += p
		if rk[0].ToolID == r.gold {
			a[b]++
		}
	}
	s := ""
	for b := range 10 {
		if n[b] > 0 {
			s += fmt.Sprintf(" [%d: n%d c%.2f a%.2f]", b, int(n[b]), c[b]/n[b], a[b]/n[b])
		}
	}
	return s
}

// feature extractors over a ranked row
type xfeat func(r xrow, rk []discover.Explained, w discover.UsageWeights) []float64

func sigm(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

func fitX(rs []xrow, w discover.UsageWeights, f xfeat) func(xrow, []discover.Explained) float64 {
	var xs [][]float64
	var ys []bool
	for _, r := range rs {
		rk := ranked(r.row, w)
		xs = append(xs, f(r, rk, w))
		ys = append(ys, rk[0].ToolID == r.gold)
	}
	wt, b, err := discover.FitLogistic(xs, ys, 1e-3)
	if err != nil {
		panic(err)
	}
	return func(r xrow, rk []discover.Explained) float64 {
		z := b
		for i, v := range f(r, rk, w) {
			z += wt[i] * v
		}
		return sigm(z)
	}
}

func TestExperiment(t *testing.T) {
	path := os.Getenv("LEARNQ_ROWS")
	if path == "" {
		t.Skip("experiment: set LEARNQ_ROWS")
	}
	base := discover.DefaultCalibration()
	if os.Getenv("LEARNQ_ENCODER") != "" {
		base = discover.DefaultEncoderCalibration()
	}
	all := loadDump(t, path)
	test := segs(all, 9, 9)
	fits := [][2]int{{5, 8}}
	if os.Getenv("LEARNQ_FITS") != "" {
		fits = [][2]int{{5, 8}, {6, 8}, {7, 8}}
	}
	for _, fit := range fits {
		fr := segs(all, fit[0], fit[1])
		w := fitWeights(plain(fr))
		calib, _, err := fitCalibration(plain(fr), w, base)
		if err != nil {
			t.Fatal(err)
		}
		cur := func(r xrow, rk []discover.Explained) float64 { return calib.Confidence(topSignals(rk, w)) }
		t.Logf("fit %v weights %+v", fit, w)
		t.Logf("  current   test %v", score(test, w, cur))
		t.Logf("     rel %s", reliability(test, w, cur))
		feats := slices.Clone(base.Features)
		for _, f := range usageFeatures {
			if !slices.Contains(feats, f) {
				feats = append(feats, f)
			}
		}
		basic := func(r xrow, rk []discover.Explained, w discover.UsageWeights) []float64 {
			top := topSignals(rk, w)
			x := make([]float64, len(feats))
			for i, f := range feats {
				x[i] = discover.TermValue(f, top)
			}
			return x
		}
		noneed := fitX(fr, w, basic)
		t.Logf("  noneed    test %v", score(test, w, noneed))
		t.Logf("     rel %s", reliability(test, w, noneed))
		hist := func(r xrow, rk []discover.Explained, w discover.UsageWeights) []float64 {
			x := basic(r, rk, w)
			top := rk[0]
			// agreement: is the top tool also first by the registry's own evidence?
			best := slices.MaxFunc(rk, func(a, b discover.Explained) int {
				return cmpf(a.Signals[discover.FeatureFused], b.Signals[discover.FeatureFused])
			})
			agree := b2f(best.ToolID == top.ToolID)
			v1, v2 := topTwo(rk, discover.FeatureUsageVote)
			c1, c2 := topTwo(rk, discover.FeatureUsageClass)
			tv1, tv2 := topTwo(rk, discover.FeatureUsageTextVote)
			return append(x, math.Log1p(float64(r.counts[top.ToolID])), agree, v1-v2, c1-c2, tv1-tv2,
				b2f(top.Signals[discover.FeatureUsageVote] == v1), b2f(top.Signals[discover.FeatureUsageClass] == c1))
		}
		needlogit := func(r xrow, rk []discover.Explained, w discover.UsageWeights) []float64 {
			return append(basic(r, rk, w), logit(needOf(base.Need, topSignals(rk, w))))
		}
		nl := fitX(fr, w, needlogit)
		t.Logf("  needlogit test %v", score(test, w, nl))
		t.Logf("     rel %s", reliability(test, w, nl))
		h := fitX(fr, w, hist)
		t.Logf("  noneed+h  test %v", score(test, w, h))
		t.Logf("     rel %s", reliability(test, w, h))
		histH := func(r xrow, rk []discover.Explained, w discover.UsageWeights) []float64 {
			return append(hist(r, rk, w), math.Log(float64(r.history)))
		}
		hh := fitX(fr, w, histH)
		t.Logf("  +logH     test %v", score(test, w, hh))
	}
}

func topTwo(rk []discover.Explained, f string) (float64, float64) {
	a, b := 0.0, 0.0
	for _, c := range rk {
		v := c.Signals[f]
		if v > a {
			a, b = v, a
		} else if v > b {
			b = v
		}
	}
	return a, b
}

func cmpf(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func logit(p float64) float64 {
	p = math.Min(math.Max(p, 1e-6), 1-1e-6)
	return math.Log(p / (1 - p))
}
