package discover

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestExploreTopCalibration studies the top of the confidence scale, where
// routing activates (≥ 0.85): variants of the P(need) · P(right | need)
// product, each 5-fold cross-validated by row exactly as
// TestExploreNeedProduct, reporting per set the ECE, AUROC (needs a tool vs
// not), the share activated and how many of those are right, the share of
// no-tool awareness queries below 0.5, and the reliability of the top bins.
// DISCOVER_ROWS=file caches the pooled features (collecting them takes
// minutes); delete the file after changing the engine.
//
//	DISCOVER_EXPLORE=1 DISCOVER_ROWS=/tmp/x.json go test ./workers/discover/ -run TestExploreTopCalibration -v
func TestExploreTopCalibration(t *testing.T) {
	needExplore(t)
	rows := topRows(t)
	def := DefaultCalibration()
	// default-4's P(right | need) features, the base the variants extend.
	base := []string{FeatureMargin, FeatureCosine, FeatureCoverage, FeatureKnown, FeatureToolCoverage}
	with := func(fs ...string) []string { return append(slices.Clone(base), fs...) }
	variants := []topVariant{
		{name: "default-4", right: base},
		{name: def.Version + " (shipped)", right: def.Features},
		{name: "+agree", right: with(FeatureAgree)},
		{name: "+both", right: with(FeatureBoth)},
		{name: "+mention", right: with(FeatureMention)},
		{name: "+keyword_logit", right: with(FeatureKeywordLogit)},
		{name: "+margin_ratio", right: with("margin_ratio")},
		{name: "+coverage_margin", right: with("coverage_margin")},
		{name: "+tool_coverage_margin", right: with("tool_coverage_margin")},
		{name: "+cosine_margin", right: with(FeatureCosineMargin)},
		{name: "+margin_excess", right: with(FeatureMarginExcess)},
		{name: "+margin_excess,tool_coverage_margin,describing_words", right: with(FeatureMarginExcess, "tool_coverage_margin", FeatureDescribing)},
		{name: "+margin_excess,describing_words", right: with(FeatureMarginExcess, FeatureDescribing)},
		{name: "+margin², describing_words", right: with("margin*margin", FeatureDescribing)},
		{name: "top-weighted loss (w=3 above 0.7)", right: base, topWeight: 3},
		{name: "Platt on logit (nested CV)", right: base, recal: "platt"},
		{name: "isotonic (nested CV)", right: base, recal: "isotonic"},
	}
	if v := os.Getenv("RIGHT_FEATURES"); v != "" {
		variants = nil
		for _, fs := range strings.Split(v, ";") {
			variants = append(variants, topVariant{name: fs, right: strings.Split(fs, ",")})
		}
	}
	needFs := def.Need.Features
	if v := os.Getenv("NEED_FEATURES"); v != "" {
		needFs = strings.Split(v, ",")
	}
	for _, v := range variants {
		conf := v.crossValidate(t, rows, needFs, def.Need.Prior)
		t.Logf("%s", v.name)
		logTopFigures(t, rows, conf)
		if v.topWeight > 0 || v.recal != "" {
			continue
		}
		var idx []int
		for i, r := range rows {
			if r.Need {
				idx = append(idx, i)
			}
		}
		y := make([]bool, len(idx))
		for k, i := range idx {
			y[k] = rows[i].Right
		}
		c, err := fitAnyNames(v.right, projectExt(rows, idx, v.right), y, nil, 1e-3)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("  P(right | need) fitted on all: weights %v bias %.4f", fmtWeights(c.Weights), c.Bias)
	}
	var aw []int
	pos := 0
	for i, r := range rows {
		if r.Set == "awareness" {
			aw = append(aw, i)
			if r.Need {
				pos++
			}
		}
	}
	ny := make([]bool, len(aw))
	for k, i := range aw {
		ny[k] = rows[i].Need
	}
	nc, err := fitAnyNames(needFs, projectExt(rows, aw, needFs), ny, nil, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	baseRate := float64(pos) / float64(len(aw))
	t.Logf("P(need) %v fitted on all: weights %v bias %.4f (%.4f on the set, base rate %.3f, plus logit(%.2f) - logit(base))",
		needFs, fmtWeights(nc.Weights), nc.Bias+logit(def.Need.Prior, 30)-logit(baseRate, 30), nc.Bias, baseRate, def.Need.Prior)
}

// topVariant is one way to compute the confidence.
type topVariant struct {
	name  string
	right []string
	// topWeight weighs rows the plain model puts at 0.7 or more this many
	// times in the P(right | need) fit.
	topWeight float64
	// recal is a monotone map of the product fitted on out-of-fold
	// predictions of the training folds: "platt" or "isotonic".
	recal string
}

// extRow is a topRow with every feature of the top candidate by name.
type extRow struct {
	Set   string             `json:"set"`
	X     map[string]float64 `json:"x"`
	Right bool               `json:"right"`
	Need  bool               `json:"need"`
}

func topRows(t *testing.T) []extRow {
	path := os.Getenv("DISCOVER_ROWS")
	if path != "" {
		if b, err := os.ReadFile(path); err == nil {
			var rows []extRow
			if err := json.Unmarshal(b, &rows); err != nil {
				t.Fatal(err)
			}
			t.Logf("%d rows from %s", len(rows), path)
			return rows
		}
	}
	var rows []extRow
	for _, set := range []string{"metatool", "sealtools"} {
		e, qs := hybridBench(t, set)
		files := devFiles(t, set, qs)
		for name, qs := range files {
			for _, r := range collectPools(t, e, qs) {
				need := r.q.NeedsTool == nil || *r.q.NeedsTool
				row := extRow{Set: name, X: map[string]float64{}, Need: need}
				if len(r.pool) > 0 {
					x := poolFeatures(r.pool)[0]
					for i, f := range FeatureNames() {
						row.X[f] = x[i]
					}
					for f, v := range exploreTopExtras(r.pool) {
						row.X[f] = v
					}
					row.Right = need && slices.Contains(r.q.GoldToolIDs, r.pool[0].en.cand.ToolID)
				}
				rows = append(rows, row)
			}
		}
	}
	if path != "" {
		b, err := json.Marshal(rows)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return rows
}

func projectExt(rows []extRow, idx []int, fs []string) [][]float64 {
	out := make([][]float64, len(idx))
	for k, i := range idx {
		out[k] = pick(rows[i].X, fs)
	}
	return out
}

// derived reads a feature, or one derived from them by name: "a*b" a
// product, "a>0.5" the hinge max(0, a-0.5).
func derived(x map[string]float64, f string) float64 {
	if a, b, ok := strings.Cut(f, "*"); ok {
		return derived(x, a) * derived(x, b)
	}
	if a, ok := strings.CutPrefix(f, "log:"); ok {
		return math.Log1p(math.Max(0, derived(x, a)))
	}
	if a, b, ok := strings.Cut(f, "<"); ok {
		t, err := strconv.ParseFloat(b, 64)
		if err != nil {
			panic(err)
		}
		return math.Min(t, derived(x, a))
	}
	if a, b, ok := strings.Cut(f, ">"); ok {
		t, err := strconv.ParseFloat(b, 64)
		if err != nil {
			panic(err)
		}
		return math.Max(0, derived(x, a)-t)
	}
	v, ok := x[f]
	if !ok {
		panic("unknown feature " + f)
	}
	return v
}

// fitProduct fits both factors on rows idx and returns a scorer.
func (v topVariant) fitProduct(t *testing.T, rows []extRow, idx []int, needFs []string, prior float64) func(i int) float64 {
	var nIdx, rIdx []int
	for _, i := range idx {
		if rows[i].Set == "awareness" {
			nIdx = append(nIdx, i)
		}
		if rows[i].Need {
			rIdx = append(rIdx, i)
		}
	}
	ny := make([]bool, len(nIdx))
	pos := 0
	for k, i := range nIdx {
		ny[k] = rows[i].Need
		if ny[k] {
			pos++
		}
	}
	nc, err := fitAnyNames(needFs, projectExt(rows, nIdx, needFs), ny, nil, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	b := float64(pos) / float64(len(ny))
	nc.Bias += math.Log(prior/(1-prior)) - math.Log(b/(1-b))
	ry := make([]bool, len(rIdx))
	for k, i := range rIdx {
		ry[k] = rows[i].Right
	}
	rx := projectExt(rows, rIdx, v.right)
	rc, err := fitAnyNames(v.right, rx, ry, nil, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if v.topWeight > 0 {
		w := make([]float64, len(rx))
		for k := range rx {
			w[k] = 1
			if linear(rc.Weights, rc.Bias, rx[k]) >= logit(0.7, 30) {
				w[k] = v.topWeight
			}
		}
		if rc, err = fitAnyNames(v.right, rx, ry, w, 1e-3); err != nil {
			t.Fatal(err)
		}
	}
	if os.Getenv("LOGW") != "" {
		t.Logf("    right %v bias %.3f", fmtWeights(rc.Weights), rc.Bias)
	}
	return func(i int) float64 {
		x := rows[i].X
		return sigmoid(linear(nc.Weights, nc.Bias, pick(x, needFs))) * sigmoid(linear(rc.Weights, rc.Bias, pick(x, v.right)))
	}
}

func pick(x map[string]float64, fs []string) []float64 {
	out := make([]float64, len(fs))
	for i, f := range fs {
		out[i] = derived(x, f)
	}
	return out
}

func linear(w []float64, b float64, x []float64) float64 {
	for i := range w {
		b += w[i] * x[i]
	}
	return b
}

// crossValidate returns every row's confidence from models fitted on the
// other folds; a recalibration is fitted on the training folds' own
// out-of-fold predictions (nested), never on the held-out fold.
func (v topVariant) crossValidate(t *testing.T, rows []extRow, needFs []string, prior float64) []float64 {
	all := make([]int, len(rows))
	for i := range all {
		all[i] = i
	}
	return v.cv(t, rows, all, needFs, prior, v.recal != "")
}

func (v topVariant) cv(t *testing.T, rows []extRow, idx []int, needFs []string, prior float64, recal bool) []float64 {
	perm := rand.New(rand.NewPCG(cvSeed(), uint64(len(idx)))).Perm(len(idx))
	out := make([]float64, len(rows))
	for f := range 5 {
		var train, test []int
		for i, j := range perm {
			if i%5 == f {
				test = append(test, idx[j])
			} else {
				train = append(train, idx[j])
			}
		}
		score := v.fitProduct(t, rows, train, needFs, prior)
		m := func(p float64) float64 { return p }
		if recal {
			inner := v.cv(t, rows, train, needFs, prior, false)
			m = v.fitRecal(t, rows, train, inner)
		}
		for _, i := range test {
			out[i] = m(score(i))
		}
	}
	return out
}

// fitRecal fits a monotone map of confidence on (prediction, right) pairs
// of rows that need a tool or are awareness rows (the same rows the product
// is judged on).
func (v topVariant) fitRecal(t *testing.T, rows []extRow, idx []int, pred []float64) func(float64) float64 {
	var p []float64
	var y []bool
	for _, i := range idx {
		p, y = append(p, pred[i]), append(y, rows[i].Right)
	}
	switch v.recal {
	case "platt":
		x := make([][]float64, len(p))
		for k := range p {
			x[k] = []float64{logit(p[k], 12)}
		}
		c, err := fitCalibration([]string{FeatureMargin}, x, y, nil, 1e-3)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("    platt: a %.3f b %.3f", c.Weights[0], c.Bias)
		return func(q float64) float64 { return sigmoid(c.Bias + c.Weights[0]*logit(q, 12)) }
	case "isotonic":
		knots := fitIsotonic(p, y)
		return func(q float64) float64 { return knots.at(q) }
	}
	t.Fatalf("unknown recalibration %q", v.recal)
	return nil
}

// isoMap is a piecewise-linear monotone map through (x[i], y[i]).
type isoMap struct{ x, y []float64 }

func (m isoMap) at(q float64) float64 {
	i, _ := slices.BinarySearch(m.x, q)
	switch {
	case i == 0:
		return m.y[0]
	case i == len(m.x):
		return m.y[len(m.y)-1]
	}
	f := (q - m.x[i-1]) / (m.x[i] - m.x[i-1])
	return m.y[i-1] + f*(m.y[i]-m.y[i-1])
}

// fitIsotonic is pool-adjacent-violators on predictions sorted ascending,
// with blocks' centres as knots.
func fitIsotonic(p []float64, y []bool) isoMap {
	o := make([]int, len(p))
	for i := range o {
		o[i] = i
	}
	slices.SortFunc(o, func(a, b int) int { return cmpf(p[a], p[b]) })
	type block struct{ sx, sy, n float64 }
	var bs []block
	for _, i := range o {
		bs = append(bs, block{p[i], b2f(y[i]), 1})
		for len(bs) > 1 && bs[len(bs)-2].sy/bs[len(bs)-2].n >= bs[len(bs)-1].sy/bs[len(bs)-1].n {
			a, b := bs[len(bs)-2], bs[len(bs)-1]
			bs = append(bs[:len(bs)-2], block{a.sx + b.sx, a.sy + b.sy, a.n + b.n})
		}
	}
	var m isoMap
	for _, b := range bs {
		m.x, m.y = append(m.x, b.sx/b.n), append(m.y, b.sy/b.n)
	}
	return m
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

func logTopFigures(t *testing.T, rows []extRow, conf []float64) {
	for _, set := range []string{"metatool", "awareness", "sealtools"} {
		var c []float64
		var right, need []bool
		quiet, noTool := 0, 0
		for i, r := range rows {
			if r.Set != set {
				continue
			}
			c, right, need = append(c, conf[i]), append(right, r.Right), append(need, r.Need)
			if !r.Need {
				noTool++
				if conf[i] < 0.5 {
					quiet++
				}
			}
		}
		act, actRight := 0, 0
		var bins [3][2]float64 // 0.85–0.9, 0.9–0.95, ≥ 0.95: count, right
		for i, x := range c {
			if x < 0.85 || !need[i] {
				if x >= 0.85 {
					act++
				}
				continue
			}
			act++
			b := min(2, int((x-0.85)/0.05))
			bins[b][0]++
			if right[i] {
				actRight++
				bins[b][1]++
			}
		}
		line := fmt.Sprintf("  %-9s ECE %.3f activated %.3f right %.3f", set,
			ece(c, right), float64(act)/float64(len(c)), float64(actRight)/math.Max(1, float64(act)))
		if noTool > 0 {
			line += fmt.Sprintf(" AUROC(need) %.3f no-tool below 0.5 %.3f", auroc(c, need), float64(quiet)/float64(noTool))
		}
		if set != "awareness" {
			line += fmt.Sprintf(" AUROC(right) %.3f prec@15%% %.3f", auroc(c, right), precisionAt(c, right, 0.15))
		}
		line += " | top bins"
		for _, b := range bins {
			line += fmt.Sprintf(" %d:%.3f", int(b[0]), b[1]/math.Max(1, b[0]))
		}
		t.Log(line)
	}
}

// precisionAt is the share right among the share most confident rows.
func precisionAt(conf []float64, right []bool, share float64) float64 {
	o := make([]int, len(conf))
	for i := range o {
		o[i] = i
	}
	slices.SortFunc(o, func(a, b int) int { return cmpf(conf[b], conf[a]) })
	n := int(share * float64(len(conf)))
	r := 0
	for _, i := range o[:n] {
		if right[i] {
			r++
		}
	}
	return float64(r) / math.Max(1, float64(n))
}

// fitAnyNames is fitCalibration for derived feature names too.
func fitAnyNames(features []string, x [][]float64, y []bool, w []float64, l2 float64) (Calibration, error) {
	c, err := fitCalibration(slices.Repeat([]string{signals[0].name}, len(features)), x, y, w, l2)
	c.Features = features
	return c, err
}

// cvSeed is the fold shuffle's seed, CV_SEED or 1, to see how much of a
// difference is the split's.
func cvSeed() uint64 {
	s, err := strconv.ParseUint(os.Getenv("CV_SEED"), 10, 64)
	if err != nil {
		return 1
	}
	return s
}

// exploreTopExtras are candidate features of the top candidate tried and
// not shipped (see TestExploreTopCalibration's variants).
func exploreTopExtras(ps []*pooled) map[string]float64 {
	top := ps[0]
	var c2, t2 float64
	out := map[string]float64{}
	if len(ps) > 1 {
		c2 = slices.MaxFunc(ps[1:], func(a, b *pooled) int { return cmpf(a.coverage, b.coverage) }).coverage
		t2 = slices.MaxFunc(ps[1:], func(a, b *pooled) int { return cmpf(a.toolCov, b.toolCov) }).toolCov
	}
	out["coverage_margin"] = top.coverage - c2
	out["tool_coverage_margin"] = top.toolCov - t2
	if top.fused > 0 && len(ps) > 1 {
		out["margin_ratio"] = (top.fused - ps[1].fused) / top.fused
	}
	return out
}
