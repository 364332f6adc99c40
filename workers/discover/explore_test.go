package discover

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/toolyard/toolyard/workers/discover/embed"
)

// Exploration of fusion variants (with and without SIF-weighted BM25 terms)
// and the calibration fit; slow, so only with
// DISCOVER_EXPLORE=1:
//
//	DISCOVER_EXPLORE=1 go test ./workers/discover/ -run Explore -v -timeout 30m

func needExplore(t *testing.T) {
	if os.Getenv("DISCOVER_EXPLORE") == "" {
		t.Skip("set DISCOVER_EXPLORE=1 to run")
	}
}

// topRow is the top candidate of one query: its features and whether it is right.
type topRow struct {
	set   string
	x     []float64
	right bool
	// need is false for an awareness query that needs no tool.
	need bool
}

// runPooled runs queries through the hybrid pool and returns per query the
// ranked ids and the top candidate's features.
func runPooled(t *testing.T, e *Engine, qs []benchQuery) (ranked [][]string, tops [][]float64) {
	ranked = make([][]string, len(qs))
	tops = make([][]float64, len(qs))
	var wg sync.WaitGroup
	w := runtime.GOMAXPROCS(0)
	for g := range w {
		wg.Go(func() {
			for i := g; i < len(qs); i += w {
				ps := e.explainPool(t, qs[i].Query)
				for _, p := range ps[:min(10, len(ps))] {
					ranked[i] = append(ranked[i], p.en.cand.ToolID)
				}
				if len(ps) > 0 {
					tops[i] = poolFeatures(ps)[0]
				}
			}
		})
	}
	wg.Wait()
	return ranked, tops
}

func (e *Engine) explainPool(t testing.TB, text string) []*pooled {
	q, qv, qe := e.testQuery(t, text)
	e.mu.RLock()
	defer e.mu.RUnlock()
	ps, err := e.pooledRanking(context.Background(), q, qv, qe, 10, ModeHybrid, e.admit(Filter{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// testQuery is what a hybrid search of text starts from: the parsed
// query, its word-vector query vector and, with an encoder, the encoder's.
func (e *Engine) testQuery(t testing.TB, text string) (parsedQuery, []float32, [][]float32) {
	t.Helper()
	ctx := context.Background()
	q := e.parse(text)
	qv, err := e.vec.query(ctx, e.vectorText(q, text, ModeHybrid))
	if err != nil {
		t.Fatal(err)
	}
	var qe [][]float32
	if e.enc != nil {
		if qe, err = e.enc.queries(ctx, text); err != nil {
			t.Fatal(err)
		}
	}
	return q, qv, qe
}

// devFiles are the dev query files of a set by name: its queries, and for
// MetaTool the awareness queries beside them.
func devFiles(t *testing.T, set string, qs []benchQuery) map[string][]benchQuery {
	files := map[string][]benchQuery{set: qs}
	if set == "metatool" {
		files["awareness"] = loadQueries(t, needBench(t, set, "awareness.dev.jsonl"))
	}
	return files
}

func hybridBench(t *testing.T, set string) (*Engine, []benchQuery) {
	emb := needVectors(t)
	tools := loadTools(t, needBench(t, set, "tools.jsonl"))
	opts := []Option{WithEmbedder(emb)}
	// DISCOVER_ENCODER=use-lite explores with the sentence encoder.
	switch enc := os.Getenv("DISCOVER_ENCODER"); enc {
	case "", "none":
	case "use-lite":
		u, err := embed.NewUSELite()
		if err != nil {
			t.Fatalf("DISCOVER_ENCODER=use-lite: %v", err)
		}
		opts = append(opts, WithEncoder(u))
	default:
		t.Fatalf("DISCOVER_ENCODER=%q: want none or use-lite", enc)
	}
	e, err := New(tools, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e, loadQueries(t, needBench(t, set, "queries.dev.jsonl"))
}

func needVectors(t testing.TB) embed.Embedder {
	t.Helper()
	emb, err := embed.NewLocal()
	if err != nil {
		t.Skipf("local vectors not available (make embeddings): %v", err)
	}
	return emb
}

func hitRecall(qs []benchQuery, ranked [][]string) (float64, float64) {
	var h, r float64
	for i, q := range qs {
		if len(ranked[i]) > 0 && slices.Contains(q.GoldToolIDs, ranked[i][0]) {
			h++
		}
		found := 0
		for _, id := range ranked[i][:min(5, len(ranked[i]))] {
			if slices.Contains(q.GoldToolIDs, id) {
				found++
			}
		}
		r += float64(found) / float64(len(q.GoldToolIDs))
	}
	return h / float64(len(qs)), r / float64(len(qs))
}

func TestExploreFusion(t *testing.T) {
	needExplore(t)
	for _, set := range []string{"metatool", "sealtools"} {
		e, qs := hybridBench(t, set)
		for _, sif := range []bool{false, true} {
			for _, f := range []fusionKind{fusionEvidence, fusionSoft, fusionSoftAdd} {
				e.cfg.fusion = f
				e.cfg.sifTerms = sif
				ranked, _ := runPooled(t, e, qs)
				h, r := hitRecall(qs, ranked)
				t.Logf("%-9s fusion %d sif terms %v: hit@1 %.3f recall@5 %.3f", set, f, sif, h, r)
			}
		}
	}
}

// TestExploreCalibration fits the calibration with 5-fold cross-validation
// over the metatool queries, awareness and sealtools dev sets together and
// reports the cross-validated ECE and AUROC per set, then the coefficients
// fitted on everything (the shipped defaults).
func TestExploreCalibration(t *testing.T) {
	needExplore(t)
	var rows []topRow
	for _, set := range []string{"metatool", "sealtools"} {
		e, qs := hybridBench(t, set)
		files := devFiles(t, set, qs)
		for name, qs := range files {
			ranked, tops := runPooled(t, e, qs)
			for i, q := range qs {
				if tops[i] == nil {
					tops[i] = make([]float64, len(signals))
				}
				need := q.NeedsTool == nil || *q.NeedsTool
				right := need && len(ranked[i]) > 0 && slices.Contains(q.GoldToolIDs, ranked[i][0])
				rows = append(rows, topRow{set: name, x: tops[i], right: right, need: need})
			}
		}
	}
	for fi, name := range FeatureNames() {
		var sc []float64
		var need []bool
		for _, r := range rows {
			if r.set == "awareness" {
				sc, need = append(sc, r.x[fi]), append(need, r.need)
			}
		}
		t.Logf("awareness AUROC of %s alone: %.3f", name, auroc(sc, need))
	}
	sets := strings.Split(os.Getenv("DISCOVER_FEATURES"), ";")
	if sets[0] == "" {
		sets = []string{strings.Join(DefaultCalibration().Features, ",")}
	}
	for _, fs := range sets {
		features := strings.Split(fs, ",")
		cvConf := crossValidate(t, rows, features, 5)
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
		c, err := FitCalibration(features, project(rows, features), labels(rows), 1e-3)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("  fitted on all: weights %v bias %.4f", fmtWeights(c.Weights), c.Bias)
	}
}

func fmtWeights(ws []float64) string {
	var b strings.Builder
	for _, w := range ws {
		fmt.Fprintf(&b, "%.4f, ", w)
	}
	return b.String()
}

func project(rows []topRow, features []string) [][]float64 {
	out := make([][]float64, len(rows))
	for i, r := range rows {
		for _, f := range features {
			out[i] = append(out[i], r.x[signalIndex(f)])
		}
	}
	return out
}

func labels(rows []topRow) []bool {
	out := make([]bool, len(rows))
	for i, r := range rows {
		out[i] = r.right
	}
	return out
}

// crossValidate returns each row's confidence from a model fitted on the
// other folds.
func crossValidate(t *testing.T, rows []topRow, features []string, k int) []float64 {
	perm := rand.New(rand.NewPCG(1, 2)).Perm(len(rows))
	out := make([]float64, len(rows))
	x := project(rows, features)
	y := labels(rows)
	for f := range k {
		var tx [][]float64
		var ty []bool
		for i, j := range perm {
			if i%k != f {
				tx, ty = append(tx, x[j]), append(ty, y[j])
			}
		}
		c, err := FitCalibration(features, tx, ty, 1e-3)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := c.compile()
		full := make([]float64, len(signals))
		for i, j := range perm {
			if i%k == f {
				clear(full)
				for fi, name := range features {
					full[signalIndex(name)] = x[j][fi]
				}
				out[j] = m.probability(full)
			}
		}
	}
	return out
}

func ece(conf []float64, right []bool) float64 {
	var n [10]float64
	var sc, sr [10]float64
	for i, c := range conf {
		b := min(9, int(c*10))
		n[b]++
		sc[b] += c
		if right[i] {
			sr[b]++
		}
	}
	var e float64
	for b := range n {
		if n[b] > 0 {
			e += math.Abs(sc[b]-sr[b]) / float64(len(conf))
		}
	}
	return e
}

func auroc(score []float64, pos []bool) float64 {
	type sp struct {
		s float64
		p bool
	}
	v := make([]sp, len(score))
	for i := range score {
		v[i] = sp{score[i], pos[i]}
	}
	sort.Slice(v, func(i, j int) bool { return v[i].s < v[j].s })
	var np, nn, sum float64
	for i := 0; i < len(v); {
		j := i
		for j < len(v) && v[j].s == v[i].s {
			j++
		}
		avg := float64(i+j+1) / 2
		for _, x := range v[i:j] {
			if x.p {
				np++
				sum += avg
			} else {
				nn++
			}
		}
		i = j
	}
	if np == 0 || nn == 0 {
		return 0
	}
	return (sum - np*(np+1)/2) / (np * nn)
}
