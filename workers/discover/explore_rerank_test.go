package discover

import (
	"cmp"
	"context"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Exploration of re-ranking and confidence signals over the hybrid pool;
// slow, so only with DISCOVER_EXPLORE=1:
//
//	DISCOVER_EXPLORE=1 go test ./workers/discover/ -run 'TestExplore(Rerank|RankCeiling|SoftWeights|Aware|NeedProduct)$' -v -timeout 30m
//
// TestExploreAware takes feature sets to cross-validate in
// DISCOVER_FEATURES ("a,b;a,b,c"; NEED=1 fits needs-a-tool on awareness
// alone, AWARE_W=n weighs awareness rows n times); TestExploreNeedProduct
// takes NEED_FEATURES, RIGHT_FEATURES and NEED_PRIOR (default: those of
// DefaultCalibration).
//
// What they found on the dev sets (hit@1 / recall@5, MetaTool then
// Seal-Tools, against fusionSoftAdd without tool coverage at 0.469 / 0.697,
// 0.959 / 0.884):
//   - TestExploreRankCeiling: a pointwise logistic ranker over every pool
//     feature (relative BM25, coverage, mention, cosine, soft and tool
//     coverage, both sides' reciprocal ranks), fitted with 5-fold
//     cross-validation, reaches 0.463 / 0.693 and 0.941 / 0.897: re-weighting
//     the evidence there is cannot reach 0.50 on MetaTool; it needs new
//     evidence.
//   - TestExploreRerank: vector side on describing words only (stop words,
//     phrasing and values dropped) 0.352 → 0.381 alone, but 0.473 / 0.700,
//     0.953 / 0.882 fused; Rocchio feedback from the top 3 tool vectors
//     0.389 alone, 0.462 / 0.696, 0.953 / 0.866 fused; half the relative
//     BM25 0.479 / 0.698 but 0.949 / 0.852; tool coverage added 0.468 /
//     0.697, 0.960 / 0.895 (shipped).
//   - TestExploreSoftWeights: soft coverage with each query word weighted by
//     how well the pool matches it: no change (0.468 / 0.697, 0.960 / 0.894).
//   - TestExploreAware: calibration features for needs-a-tool; tool coverage
//     is the one that helps (shipped); best cosine, the cosine to the
//     registry centroid, out-of-vocabulary share, query length: ±0.003.
//   - TestExploreNeedProduct: P(need) · P(right | need) (shipped, need.go).
//   - Also tried, code not kept: the cosine to the tool's name alone as a
//     fusion term (+0.5·minmax: 0.470 / 0.699 but 0.951 / 0.885); all-but-
//     the-top post-processing of the word vectors for soft matching (mean
//     and top 1–5 principal directions of the 50k most frequent words
//     removed, floor re-derived as the 99th percentile of random pairs):
//     0.466–0.467 / 0.697, 0.956–0.960 / 0.894–0.895.

// poolRun is one query's hybrid pool, in fused order.
type poolRun struct {
	q    benchQuery
	pq   parsedQuery
	pool []*pooled
}

func collectPools(t *testing.T, e *Engine, qs []benchQuery) []poolRun {
	out := make([]poolRun, len(qs))
	var wg sync.WaitGroup
	w := runtime.GOMAXPROCS(0)
	for g := range w {
		wg.Go(func() {
			for i := g; i < len(qs); i += w {
				ps := e.explainPool(t, qs[i].Query)
				out[i] = poolRun{q: qs[i], pq: e.parse(qs[i].Query), pool: ps}
			}
		})
	}
	wg.Wait()
	return out
}

func TestExploreRerankDiag(t *testing.T) {
	needExplore(t)
	e, qs := hybridBench(t, "metatool")
	runs := collectPools(t, e, qs)
	gold, pred := os.Getenv("GOLD"), os.Getenv("PRED")
	n := 0
	for _, r := range runs {
		if len(r.pool) == 0 || r.q.GoldToolIDs[0] != gold || r.pool[0].en.cand.ToolID != pred {
			continue
		}
		n++
		if n > 12 {
			break
		}
		t.Logf("Q %q describing %v", r.q.Query, r.pq.describing)
		for i, p := range r.pool[:min(6, len(r.pool))] {
			mark := " "
			if slices.Contains(r.q.GoldToolIDs, p.en.cand.ToolID) {
				mark = "*"
			}
			t.Logf("  %s%d %-28s fused %.3f bm25 %.2f cos %.3f cov %.3f soft %.3f kw %d vec %d", mark, i, p.en.cand.ToolID, p.fused, p.bm25, p.cosine, p.coverage, p.soft, p.kwRank, p.vecRank)
		}
		for i, p := range r.pool {
			if i >= 6 && slices.Contains(r.q.GoldToolIDs, p.en.cand.ToolID) {
				t.Logf("  *%d %-28s fused %.3f bm25 %.2f cos %.3f cov %.3f soft %.3f kw %d vec %d", i, p.en.cand.ToolID, p.fused, p.bm25, p.cosine, p.coverage, p.soft, p.kwRank, p.vecRank)
			}
		}
	}
}

// extra are per-candidate signals computed outside the engine, to try.
type extra struct {
	prec  float64 // tool-side soft precision
	cosD  float64 // cosine of the describing words' vector
	cosRF float64 // cosine after Rocchio feedback from the top 3
	cosN  float64 // cosine of the query to the tool's name alone
}

// poolCredit is, per describing term, the best credit any pooled tool gives it.
func (e *Engine) poolCredit(r poolRun) []float64 {
	out := make([]float64, len(r.pq.describing))
	for i, t := range r.pq.describing {
		qv := e.soft.vector(r.pq.surface[t])
		for _, p := range r.pool {
			if _, ok := slices.BinarySearch(p.en.terms, t); ok {
				out[i] = 1
				break
			}
			if qv == nil {
				continue
			}
			for _, id := range p.en.wordIDs {
				out[i] = max(out[i], softCredit(dot(qv, e.soft.vecs[id])))
			}
		}
	}
	return out
}

var exploreToolVecs, exploreNameVecs map[string][]float32

func (e *Engine) toolPrecision(pq parsedQuery, en *entry) float64 {
	s := e.soft
	var qv [][]float32
	for _, t := range pq.describing {
		if v := s.vector(pq.surface[t]); v != nil {
			qv = append(qv, v)
		}
	}
	var num, den float64
	for _, w := range en.words {
		ts := terms(e.text, w)
		if len(ts) == 0 {
			continue
		}
		wt := e.stats.idf(ts[0])
		den += wt
		if slices.Contains(pq.describing, ts[0]) {
			num += wt
			continue
		}
		v := s.vector(w)
		if v == nil {
			continue
		}
		best := float32(-1)
		for _, q := range qv {
			best = max(best, dot(q, v))
		}
		num += wt * softCredit(best)
	}
	if den == 0 {
		return 0
	}
	return num / den
}

type variant struct {
	name  string
	score func(r poolRun, i int, x []extra) float64
}

func evalVariants(t *testing.T, set string, e *Engine, runs []poolRun, vs []variant) {
	xs := make([][]extra, len(runs))
	for i, r := range runs {
		xs[i] = make([]extra, len(r.pool))
		for j, p := range r.pool {
			xs[i][j].prec = e.toolPrecision(r.pq, p.en)
		}
		var ws []string
		for _, t := range r.pq.describing {
			ws = append(ws, r.pq.surface[t])
		}
		qd, _ := e.vec.query(context.Background(), strings.Join(ws, " "))
		qo, _ := e.vec.query(context.Background(), r.q.Query)
		if qo != nil {
			fb := slices.Clone(qo)
			for _, p := range r.pool[:min(3, len(r.pool))] {
				for k, x := range exploreToolVecs[p.en.cand.ToolID] {
					fb[k] += x / 3 * 0.5
				}
			}
			for j, p := range r.pool {
				tv := exploreToolVecs[p.en.cand.ToolID]
				if qd != nil {
					xs[i][j].cosD = float64(dot(qd, tv))
				}
				var n float32
				for _, x := range fb {
					n += x * x
				}
				xs[i][j].cosRF = float64(dot(fb, tv)) / math.Sqrt(float64(n))
				if nv := exploreNameVecs[p.en.cand.ToolID]; nv != nil {
					xs[i][j].cosN = float64(dot(qo, nv))
				}
			}
		}
	}
	for _, v := range vs {
		var h, rec float64
		for i, r := range runs {
			sc := make([]float64, len(r.pool))
			for j := range r.pool {
				sc[j] = v.score(r, j, xs[i])
			}
			hit, recall := rankPool(r, sc)
			h, rec = h+hit, rec+recall
		}
		n := float64(len(runs))
		t.Logf("%-9s %-40s hit@1 %.3f recall@5 %.3f", set, v.name, h/n, rec/n)
	}
}

func relBM25(r poolRun, i int) float64 {
	best := 0.0
	for _, p := range r.pool {
		best = max(best, p.bm25)
	}
	if best == 0 {
		return 0
	}
	return r.pool[i].bm25 / best
}

func cosMinMax(r poolRun, i int) float64 {
	lo, hi := 10.0, -10.0
	for _, p := range r.pool {
		lo, hi = min(lo, p.cosine), max(hi, p.cosine)
	}
	if hi <= lo {
		return 0
	}
	return (r.pool[i].cosine - lo) / (hi - lo)
}

func TestExploreRerank(t *testing.T) {
	needExplore(t)
	vs := []variant{
		{"current", func(r poolRun, i int, x []extra) float64 { return r.pool[i].fused }},
		{"+prec", func(r poolRun, i int, x []extra) float64 { return r.pool[i].fused + x[i].prec }},
		{"+0.5prec", func(r poolRun, i int, x []extra) float64 { return r.pool[i].fused + 0.5*x[i].prec }},
		{"+F1", func(r poolRun, i int, x []extra) float64 {
			p, s := x[i].prec, r.pool[i].soft
			f := 0.0
			if p+s > 0 {
				f = 2 * p * s / (p + s)
			}
			return r.pool[i].fused - s + f
		}},
		{"cos of describing words", func(r poolRun, i int, x []extra) float64 {
			return r.pool[i].fused - cosMinMax(r, i) + minMaxOf(x, i, func(e extra) float64 { return e.cosD })
		}},
		{"+minmax name cosine", func(r poolRun, i int, x []extra) float64 {
			return r.pool[i].fused + minMaxOf(x, i, func(e extra) float64 { return e.cosN })
		}},
		{"+0.5 minmax name cosine", func(r poolRun, i int, x []extra) float64 {
			return r.pool[i].fused + 0.5*minMaxOf(x, i, func(e extra) float64 { return e.cosN })
		}},
		{"+name cosine", func(r poolRun, i int, x []extra) float64 { return r.pool[i].fused + x[i].cosN }},
		{"cosD +prec", func(r poolRun, i int, x []extra) float64 {
			return r.pool[i].fused - cosMinMax(r, i) + minMaxOf(x, i, func(e extra) float64 { return e.cosD }) + x[i].prec
		}},
		{"avg cos cosD", func(r poolRun, i int, x []extra) float64 {
			return r.pool[i].fused - 0.5*cosMinMax(r, i) + 0.5*minMaxOf(x, i, func(e extra) float64 { return e.cosD })
		}},
		{"avg cos cosD +prec", func(r poolRun, i int, x []extra) float64 {
			return r.pool[i].fused - 0.5*cosMinMax(r, i) + 0.5*minMaxOf(x, i, func(e extra) float64 { return e.cosD }) + x[i].prec
		}},
		{"+prec minmax", func(r poolRun, i int, x []extra) float64 {
			return r.pool[i].fused + minMaxOf(x, i, func(e extra) float64 { return e.prec })
		}},
		{"vector only: cos", func(r poolRun, i int, x []extra) float64 { return r.pool[i].cosine }},
		{"vector only: cosD", func(r poolRun, i int, x []extra) float64 { return x[i].cosD }},
		{"vector only: cosRF", func(r poolRun, i int, x []extra) float64 { return x[i].cosRF }},
		{"rocchio", func(r poolRun, i int, x []extra) float64 {
			return r.pool[i].fused - cosMinMax(r, i) + minMaxOf(x, i, func(e extra) float64 { return e.cosRF })
		}},
		{"no relbm25", func(r poolRun, i int, x []extra) float64 { return r.pool[i].fused - relBM25(r, i) }},
		{"half relbm25", func(r poolRun, i int, x []extra) float64 { return r.pool[i].fused - 0.5*relBM25(r, i) }},
		{"relbm25*cov^.5", func(r poolRun, i int, x []extra) float64 {
			return r.pool[i].fused - relBM25(r, i) + relBM25(r, i)*math.Sqrt(r.pool[i].soft)
		}},
		{"raw cos instead of minmax", func(r poolRun, i int, x []extra) float64 {
			return r.pool[i].fused - cosMinMax(r, i) + 2*r.pool[i].cosine
		}},
	}
	for _, set := range []string{"metatool", "sealtools"} {
		e, qs := hybridBench(t, set)
		tools := loadTools(t, needBench(t, set, "tools.jsonl"))
		vecs, err := embed.EmbedTools(context.Background(), e.vec.emb, nil, tools)
		if err != nil {
			t.Fatal(err)
		}
		exploreToolVecs = map[string][]float32{}
		exploreNameVecs = map[string][]float32{}
		for i, m := range tools {
			exploreToolVecs[m.ID] = vecs[i]
			name := m.Name
			if name == "" {
				name = m.ID
			}
			nv, _ := e.vec.emb.EmbedQuery(context.Background(), name)
			if !isZero(nv) {
				exploreNameVecs[m.ID] = nv
			}
		}
		runs := collectPools(t, e, qs)
		evalVariants(t, set, e, runs, vs)
	}
}

// extraFeatures are candidate features for the calibration, computed from
// the pool of one query (ps in ranking order) for its top candidate.
var extraFeatures = []struct {
	name string
	f    func(e *Engine, r poolRun) float64
}{
	{"cos_best", func(e *Engine, r poolRun) float64 {
		b := -1.0
		for _, p := range r.pool {
			b = max(b, p.cosine)
		}
		return b
	}},
	{"cos_z", func(e *Engine, r poolRun) float64 {
		var s, s2 float64
		for _, p := range r.pool {
			s += p.cosine
			s2 += p.cosine * p.cosine
		}
		n := float64(len(r.pool))
		m := s / n
		sd := math.Sqrt(max(1e-9, s2/n-m*m))
		return (r.pool[0].cosine - m) / sd
	}},
	{"cosbest_z", func(e *Engine, r poolRun) float64 {
		var s, s2 float64
		b := -1.0
		for _, p := range r.pool {
			s += p.cosine
			s2 += p.cosine * p.cosine
			b = max(b, p.cosine)
		}
		n := float64(len(r.pool))
		m := s / n
		sd := math.Sqrt(max(1e-9, s2/n-m*m))
		return (b - m) / sd
	}},
	{"prec", func(e *Engine, r poolRun) float64 { return e.toolPrecision(r.pq, r.pool[0].en) }},
	{"soft_best", func(e *Engine, r poolRun) float64 {
		b := 0.0
		for _, p := range r.pool {
			b = max(b, p.soft)
		}
		return b
	}},
	{"cos_top5", func(e *Engine, r poolRun) float64 {
		cs := make([]float64, 0, len(r.pool))
		for _, p := range r.pool {
			cs = append(cs, p.cosine)
		}
		slices.Sort(cs)
		slices.Reverse(cs)
		var s float64
		for _, c := range cs[:min(5, len(cs))] {
			s += c
		}
		return s / 5
	}},
	{"cos_centroid", func(e *Engine, r poolRun) float64 {
		qv, _ := e.vec.query(context.Background(), r.q.Query)
		if qv == nil || exploreCentroid == nil {
			return 0
		}
		return float64(dot(qv, exploreCentroid))
	}},
	{"oov", func(e *Engine, r poolRun) float64 {
		n, o := 0, 0
		for _, t := range r.pq.describing {
			n++
			if e.soft.vector(r.pq.surface[t]) == nil {
				o++
			}
		}
		if n == 0 {
			return 0
		}
		return float64(o) / float64(n)
	}},
	{"f1", func(e *Engine, r poolRun) float64 {
		p, s := e.toolPrecision(r.pq, r.pool[0].en), r.pool[0].soft
		if p+s == 0 {
			return 0
		}
		return 2 * p * s / (p + s)
	}},
	{"prec_best5", func(e *Engine, r poolRun) float64 {
		b := 0.0
		for _, p := range r.pool[:min(5, len(r.pool))] {
			b = max(b, e.toolPrecision(r.pq, p.en))
		}
		return b
	}},
	{"ndesc", func(e *Engine, r poolRun) float64 { return math.Log(1 + float64(len(r.pq.describing))) }},
}

func TestExploreAware(t *testing.T) {
	needExplore(t)
	var rows []topRow
	for _, set := range []string{"metatool", "sealtools"} {
		e, qs := hybridBench(t, set)
		exploreCentroid = registryCentroid(t, e, set)
		{
			tools := loadTools(t, needBench(t, set, "tools.jsonl"))
			vecs, err := embed.EmbedTools(context.Background(), e.vec.emb, nil, tools)
			if err != nil {
				t.Fatal(err)
			}
			exploreToolVecs = map[string][]float32{}
			for i, m := range tools {
				exploreToolVecs[m.ID] = vecs[i]
			}
		}
		files := devFiles(t, set, qs)
		for name, qs := range files {
			runs := collectPools(t, e, qs)
			for _, r := range runs {
				x := make([]float64, len(signals)+len(extraFeatures))
				right := false
				need := r.q.NeedsTool == nil || *r.q.NeedsTool
				if len(r.pool) > 0 {
					copy(x, poolFeatures(r.pool)[0])
					for k, f := range extraFeatures {
						x[len(signals)+k] = f.f(e, r)
					}
					right = need && slices.Contains(r.q.GoldToolIDs, r.pool[0].en.cand.ToolID)
				}
				rows = append(rows, topRow{set: name, x: x, right: right, need: need})
			}
		}
	}
	names := FeatureNames()
	for _, f := range extraFeatures {
		names = append(names, f.name)
	}
	for fi, name := range names {
		var sc []float64
		var need []bool
		for _, r := range rows {
			if r.set == "awareness" {
				sc, need = append(sc, r.x[fi]), append(need, r.need)
			}
		}
		t.Logf("awareness AUROC of %s alone: %.3f", name, auroc(sc, need))
	}
	if os.Getenv("NEED") != "" {
		// A need-only model: awareness rows, labelled needs-a-tool.
		var aw []topRow
		for _, r := range rows {
			if r.set == "awareness" {
				r.right = r.need
				aw = append(aw, r)
			}
		}
		rows = aw
	}
	sets := strings.Split(os.Getenv("DISCOVER_FEATURES"), ";")
	if sets[0] == "" {
		sets = []string{strings.Join(DefaultCalibration().Features, ",")}
	}
	for _, fs := range sets {
		features := strings.Split(fs, ",")
		cvConf := crossValidateX(t, rows, names, features, 5)
		t.Logf("features %v:", features)
		for _, set := range []string{"metatool", "awareness", "sealtools"} {
			var conf []float64
			var right, need []bool
			for i, r := range rows {
				if r.set == set {
					conf = append(conf, cvConf[i])
					right = append(right, r.right)
					need = append(need, r.need)
				}
			}
			act, actRight := 0, 0
			for i, c := range conf {
				if c >= 0.85 {
					act++
					if right[i] {
						actRight++
					}
				}
			}
			t.Logf("  %-9s CV ECE %.3f  AUROC(need) %.3f  activated %.3f right %.3f",
				set, ece(conf, right), auroc(conf, need), float64(act)/float64(len(conf)), float64(actRight)/math.Max(1, float64(act)))
		}
		x := make([][]float64, len(rows))
		for i, r := range rows {
			for _, f := range features {
				x[i] = append(x[i], r.x[slices.Index(names, f)])
			}
		}
		c, err := fitX(features, x, labels(rows))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("  fitted on all: weights %v bias %.4f", fmtWeights(c.Weights), c.Bias)
	}
}

// fitX fits like FitCalibration but for feature names outside the signals table.
func fitX(features []string, x [][]float64, y []bool) (Calibration, error) {
	fake := make([]string, len(features))
	for i := range fake {
		fake[i] = signals[0].name
	}
	c, err := FitCalibration(fake, x, y, 1e-3)
	c.Features = features
	return c, err
}

func crossValidateX(t *testing.T, rows []topRow, names, features []string, k int) []float64 {
	perm := rand.New(rand.NewPCG(1, 2)).Perm(len(rows))
	out := make([]float64, len(rows))
	x := make([][]float64, len(rows))
	for i, r := range rows {
		for _, f := range features {
			j := slices.Index(names, f)
			if j < 0 {
				t.Fatalf("unknown feature %q", f)
			}
			x[i] = append(x[i], r.x[j])
		}
	}
	y := labels(rows)
	for f := range k {
		var tx [][]float64
		var ty []bool
		for i, j := range perm {
			if i%k != f {
				rep := 1
				if rows[j].set == "awareness" {
					rep = awareWeight
				}
				for range rep {
					tx, ty = append(tx, x[j]), append(ty, y[j])
				}
			}
		}
		c, err := fitX(features, tx, ty)
		if err != nil {
			t.Fatal(err)
		}
		for i, j := range perm {
			if i%k == f {
				z := c.Bias
				for fi := range features {
					z += c.Weights[fi] * x[j][fi]
				}
				out[j] = sigmoid(z)
			}
		}
	}
	return out
}

var exploreCentroid []float32

func registryCentroid(t *testing.T, e *Engine, set string) []float32 {
	tools := loadTools(t, needBench(t, set, "tools.jsonl"))
	vs, err := embed.EmbedTools(context.Background(), e.vec.emb, nil, tools)
	if err != nil {
		t.Fatal(err)
	}
	c := make([]float32, len(vs[0]))
	for _, v := range vs {
		for k := range c {
			c[k] += v[k]
		}
	}
	var n float32
	for _, x := range c {
		n += x * x
	}
	n = float32(math.Sqrt(float64(n)))
	for k := range c {
		c[k] /= n
	}
	return c
}

func minMaxOf(x []extra, i int, f func(extra) float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, e := range x {
		lo, hi = min(lo, f(e)), max(hi, f(e))
	}
	if hi <= lo {
		return 0
	}
	return (f(x[i]) - lo) / (hi - lo)
}

var awareWeight = func() int {
	n, _ := strconv.Atoi(os.Getenv("AWARE_W"))
	return max(1, n)
}()

// TestExploreRankCeiling fits a pointwise logistic ranker on pool features
// with 5-fold cross-validation by query: how far could a re-weighting of
// the existing evidence go? (A measurement, not a shipped model.)
func TestExploreRankCeiling(t *testing.T) {
	needExplore(t)
	names := []string{"relbm25", "coverage", "mention", "cosmm", "soft", "toolcov", "cosine", "kwrr", "vecrr"}
	feat := func(r poolRun, i int) []float64 {
		p := r.pool[i]
		rr := func(k int) float64 {
			if k < 0 {
				return 0
			}
			return 1 / float64(1+k)
		}
		return []float64{relBM25(r, i), p.coverage, p.mention, cosMinMax(r, i), p.soft, p.toolCov, p.cosine, rr(p.kwRank), rr(p.vecRank)}
	}
	for _, set := range []string{"metatool", "sealtools"} {
		e, qs := hybridBench(t, set)
		runs := collectPools(t, e, qs)
		perm := rand.New(rand.NewPCG(3, 4)).Perm(len(runs))
		var h, rec float64
		for f := range 5 {
			var x [][]float64
			var y []bool
			for i, j := range perm {
				if i%5 == f {
					continue
				}
				r := runs[j]
				for c := range r.pool {
					x = append(x, feat(r, c))
					y = append(y, slices.Contains(r.q.GoldToolIDs, r.pool[c].en.cand.ToolID))
				}
			}
			c, err := fitX(names, x, y)
			if err != nil {
				t.Fatal(err)
			}
			if f == 0 {
				t.Logf("%s fold 0 weights %v", set, fmtWeights(c.Weights))
			}
			for i, j := range perm {
				if i%5 != f {
					continue
				}
				r := runs[j]
				sc := make([]float64, len(r.pool))
				for k := range r.pool {
					for fi, v := range feat(r, k) {
						sc[k] += c.Weights[fi] * v
					}
				}
				hit, recall := rankPool(r, sc)
				h, rec = h+hit, rec+recall
			}
		}
		t.Logf("%s CV-fitted ranker: hit@1 %.3f recall@5 %.3f", set, h/float64(len(runs)), rec/float64(len(runs)))
	}
}

// softVariants recomputes soft coverage with each describing word's weight
// multiplied by how well the pool's best tool matches it (b): words no tool
// deals with (phrasing, chat) stop diluting the comparison.
func softVariants(e *Engine, r poolRun) (plainSoft, weighted []float64) {
	weights, total := e.describingWeights(r.pq)
	prior := total
	for _, w := range weights {
		prior -= w
	}
	b := e.poolCredit(r)
	plainSoft = make([]float64, len(r.pool))
	weighted = make([]float64, len(r.pool))
	for j, p := range r.pool {
		var c1, c2, t2 float64
		for i, t := range r.pq.describing {
			c := 0.0
			if _, ok := slices.BinarySearch(p.en.terms, t); ok {
				c = 1
			} else if qv := e.soft.vector(r.pq.surface[t]); qv != nil {
				best := float32(-1)
				for _, id := range p.en.wordIDs {
					best = max(best, dot(qv, e.soft.vecs[id]))
				}
				c = softCredit(best)
			}
			c1 += weights[i] * c
			c2 += weights[i] * b[i] * c
			t2 += weights[i] * b[i]
		}
		plainSoft[j] = c1 / total
		weighted[j] = c2 / (t2 + prior)
	}
	return plainSoft, weighted
}

func TestExploreSoftWeights(t *testing.T) {
	needExplore(t)
	for _, set := range []string{"metatool", "sealtools"} {
		e, qs := hybridBench(t, set)
		runs := collectPools(t, e, qs)
		ws := make([][]float64, len(runs))
		for i, r := range runs {
			plain, w := softVariants(e, r)
			for j, p := range r.pool {
				if math.Abs(plain[j]-p.soft) > 1e-9 {
					t.Fatalf("soft coverage recomputed %.6f, engine %.6f", plain[j], p.soft)
				}
			}
			ws[i] = w
		}
		k := 0
		vs := []variant{
			{"current", func(r poolRun, i int, x []extra) float64 { return r.pool[i].fused }},
			{"credit-weighted soft", func(r poolRun, i int, x []extra) float64 {
				return r.pool[i].fused - clamp01(r.pool[i].soft) + ws[k][i]
			}},
		}
		for _, v := range vs {
			var h, rec float64
			for qi, r := range runs {
				k = qi
				sc := make([]float64, len(r.pool))
				for j := range r.pool {
					sc[j] = v.score(r, j, nil)
				}
				hit, recall := rankPool(r, sc)
				h, rec = h+hit, rec+recall
			}
			t.Logf("%-9s %-30s hit@1 %.3f recall@5 %.3f", set, v.name, h/float64(len(runs)), rec/float64(len(runs)))
		}
	}
}

// TestExploreNeedProduct: confidence = P(needs a tool) · P(right | needs),
// the first fit on awareness (labelled needs_tool), the second on every row
// that needs a tool; both 5-fold cross-validated by row.
func TestExploreNeedProduct(t *testing.T) {
	needExplore(t)
	var rows []topRow
	for _, set := range []string{"metatool", "sealtools"} {
		e, qs := hybridBench(t, set)
		exploreCentroid = registryCentroid(t, e, set)
		files := devFiles(t, set, qs)
		for name, qs := range files {
			for _, r := range collectPools(t, e, qs) {
				x := make([]float64, len(signals)+len(extraFeatures))
				right := false
				need := r.q.NeedsTool == nil || *r.q.NeedsTool
				if len(r.pool) > 0 {
					copy(x, poolFeatures(r.pool)[0])
					for k, f := range extraFeatures {
						if f.name == "prec" || f.name == "f1" || f.name == "prec_best5" {
							continue
						}
						x[len(signals)+k] = f.f(e, r)
					}
					right = need && slices.Contains(r.q.GoldToolIDs, r.pool[0].en.cand.ToolID)
				}
				rows = append(rows, topRow{set: name, x: x, right: right, need: need})
			}
		}
	}
	names := FeatureNames()
	for _, f := range extraFeatures {
		names = append(names, f.name)
	}
	proj := func(r topRow, fs []string) []float64 {
		var out []float64
		for _, f := range fs {
			out = append(out, r.x[slices.Index(names, f)])
		}
		return out
	}
	score := func(c Calibration, x []float64) float64 {
		z := c.Bias
		for i := range x {
			z += c.Weights[i] * x[i]
		}
		return sigmoid(z)
	}
	def := DefaultCalibration()
	needFs, rightFs := def.Need.Features, def.Features
	if v := os.Getenv("NEED_FEATURES"); v != "" {
		needFs = strings.Split(v, ",")
	}
	if v := os.Getenv("RIGHT_FEATURES"); v != "" {
		rightFs = strings.Split(v, ",")
	}
	prior := def.Need.Prior
	if v := os.Getenv("NEED_PRIOR"); v != "" {
		prior, _ = strconv.ParseFloat(v, 64)
	}
	perm := rand.New(rand.NewPCG(1, 2)).Perm(len(rows))
	conf := make([]float64, len(rows))
	pneed := make([]float64, len(rows))
	for f := range 5 {
		var nx, rx [][]float64
		var ny, ry []bool
		for i, j := range perm {
			if i%5 == f {
				continue
			}
			r := rows[j]
			if r.set == "awareness" || os.Getenv("NEED_ALL") != "" {
				nx, ny = append(nx, proj(r, needFs)), append(ny, r.need)
			}
			if r.need {
				rx, ry = append(rx, proj(r, rightFs)), append(ry, r.right)
			}
		}
		nc, err := fitX(needFs, nx, ny)
		if err != nil {
			t.Fatal(err)
		}
		if pi := prior; pi > 0 && pi < 1 {
			pos := 0
			for _, y := range ny {
				if y {
					pos++
				}
			}
			base := float64(pos) / float64(len(ny))
			nc.Bias += math.Log(pi/(1-pi)) - math.Log(base/(1-base))
		}
		rc, err := fitX(rightFs, rx, ry)
		if err != nil {
			t.Fatal(err)
		}
		if f == 0 {
			t.Logf("fold 0 need %v bias %.3f; right %v bias %.3f", fmtWeights(nc.Weights), nc.Bias, fmtWeights(rc.Weights), rc.Bias)
		}
		for i, j := range perm {
			if i%5 == f {
				pneed[j] = score(nc, proj(rows[j], needFs))
				conf[j] = pneed[j] * score(rc, proj(rows[j], rightFs))
			}
		}
	}
	{
		var nx, rx [][]float64
		var ny, ry []bool
		for _, r := range rows {
			if r.set == "awareness" {
				nx, ny = append(nx, proj(r, needFs)), append(ny, r.need)
			}
			if r.need {
				rx, ry = append(rx, proj(r, rightFs)), append(ry, r.right)
			}
		}
		nc, err := fitX(needFs, nx, ny)
		if err != nil {
			t.Fatal(err)
		}
		rc, err := fitX(rightFs, rx, ry)
		if err != nil {
			t.Fatal(err)
		}
		pos := 0
		for _, y := range ny {
			if y {
				pos++
			}
		}
		base := float64(pos) / float64(len(ny))
		t.Logf("fitted on all: need %v bias %.4f (balanced; base rate %.3f, logit %.4f); right %v bias %.4f",
			fmtWeights(nc.Weights), nc.Bias, base, math.Log(base/(1-base)), fmtWeights(rc.Weights), rc.Bias)
	}
	for _, set := range []string{"metatool", "awareness", "sealtools"} {
		var c, pn []float64
		var right, need []bool
		for i, r := range rows {
			if r.set == set {
				c, pn = append(c, conf[i]), append(pn, pneed[i])
				right, need = append(right, r.right), append(need, r.need)
			}
		}
		act, actRight := 0, 0
		var mean float64
		for i, x := range c {
			mean += pn[i]
			if x >= 0.85 {
				act++
				if right[i] {
					actRight++
				}
			}
		}
		t.Logf("  %-9s CV ECE %.3f  AUROC(need) %.3f (need model alone %.3f, mean %.3f)  activated %.3f right %.3f",
			set, ece(c, right), auroc(c, need), auroc(pn, need), mean/float64(len(c)), float64(act)/float64(len(c)), float64(actRight)/math.Max(1, float64(act)))
	}
}

// rankPool orders r's pool by sc, best first, and says whether the best is
// a gold tool (1 or 0) and what share of the gold tools the top 5 hold.
func rankPool(r poolRun, sc []float64) (hit, recall float64) {
	idx := make([]int, len(r.pool))
	for j := range idx {
		idx[j] = j
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(sc[b], sc[a]) })
	found := 0
	for k, j := range idx[:min(5, len(idx))] {
		if slices.Contains(r.q.GoldToolIDs, r.pool[j].en.cand.ToolID) {
			if k == 0 {
				hit = 1
			}
			found++
		}
	}
	return hit, float64(found) / float64(len(r.q.GoldToolIDs))
}
