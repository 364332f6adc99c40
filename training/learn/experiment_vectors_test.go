//go:build experiment

package learn

// Recall@5 with more nearest-intent evidence (training/README.md "Ranking:
// recall@5"): the rows of a usage-encoder dump (LEARNQ_ROWS, LEARNQ_ROWS_POOL
// as TestExperimentRecallTerms) given three more per-candidate terms,
// computed here from the sentence encoder's vectors of the same history
// (each row's tenth sees everything before it, as the dump's usage model):
// the mean of the tool's 3 nearest learned intents (density, not one lucky
// neighbour), the cosine to the centroid of its learned intents, and the
// cosine to the tool's own text. LEARNQ_VECS caches the vectors.
//
//	LEARNQ_TOOLS=… LEARNQ_AUDIT=… LEARNQ_VECS=/tmp/vecs.json LEARNQ_ROWS=… LEARNQ_ROWS_POOL=… \
//	  go test -tags experiment -run TestExperimentRecallVectors -v ./training/learn/

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/toolyard/toolyard/workers/discover"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/labels"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/registry"
)

var softTaus = []float64{0.02, 0.05, 0.1}

const (
	xNear3    = "x_near3"
	xCentroid = "x_centroid"
	xToolCos  = "x_tool_cosine"
)

func TestExperimentRecallVectors(t *testing.T) {
	if os.Getenv("LEARNQ_VECS") == "" {
		t.Skip("experiment: set LEARNQ_VECS, LEARNQ_TOOLS, LEARNQ_AUDIT, LEARNQ_ROWS, LEARNQ_ROWS_POOL")
	}
	all, pool := recallRows(t)
	pos, vecs := historyVectors(t)

	annotate := func(rs []xrow) {
		// rows of one tenth come in the order of pos[lo:hi]
		bySeg := map[int]int{}
		for k := range rs {
			r := &rs[k]
			lo, hi := len(pos)*r.seg/10, len(pos)*(r.seg+1)/10
			ex := pos[lo+bySeg[r.seg]]
			bySeg[r.seg]++
			if ex.Tool != r.gold || lo+bySeg[r.seg] > hi {
				t.Fatalf("row %d of tenth %d is not example %d", k, r.seg, lo+bySeg[r.seg]-1)
			}
			intents := intentsBefore(pos[:lo])
			q := vecs[ex.Text]
			for i := range r.cands {
				c := &r.cands[i]
				s := c.Signals
				var cos []float64
				cen := make([]float64, len(q))
				for _, text := range intents[c.ToolID] {
					v := vecs[text]
					cos = append(cos, float64(dotf(q, v)))
					for j, x := range v {
						cen[j] += float64(x)
					}
				}
				slices.Sort(cos)
				slices.Reverse(cos)
				if n := min(3, len(cos)); n > 0 {
					sum := 0.0
					for _, v := range cos[:n] {
						sum += v
					}
					s[xNear3] = sum / 3
				}
				var dot, norm float64
				for j, x := range cen {
					dot += x * float64(q[j])
					norm += x * x
				}
				if norm > 0 {
					s[xCentroid] = dot / math.Sqrt(norm)
				}
				s[xToolCos] = float64(dotf(q, vecs["tool:"+c.ToolID]))
			}
			// soft vote: every learned intent votes exp(cos/tau) for its
			// tool, normalised over all of them
			for _, tau := range softTaus {
				votes := map[string]float64{}
				var total float64
				for tool, texts := range intents {
					for _, text := range texts {
						v := math.Exp((float64(dotf(q, vecs[text])) - 1) / tau)
						votes[tool] += v
						total += v
					}
				}
				for i := range r.cands {
					r.cands[i].Signals[fmt.Sprintf("x_soft_%g", tau)] = votes[r.cands[i].ToolID] / total
				}
			}
		}
	}
	annotate(all)
	if pool != nil {
		annotate(pool)
	}
	fit, test := segs(all, 5, 8), segs(all, 9, 9)
	sim := func(a, b string) float64 { return float64(dotf(vecs["tool:"+a], vecs["tool:"+b])) }
	tw := fitWeights(plain(fit))
	for _, l := range []float64{0, 0.5, 1, 2, 4, 8} {
		line := fmt.Sprintf("MMR lambda %g: fit R@5 %.3f, best 50 R@5 %.3f", l, mmrRecall(fit, tw, sim, l), mmrRecall(test, tw, sim, l))
		if pool != nil {
			line += fmt.Sprintf(", whole pool R@5 %.3f", mmrRecall(pool, tw, sim, l))
		}
		t.Log(line)
	}
	if pool != nil {
		// the bound: fitted on the latest tenth itself, every term
		ts := append(slices.Clone(baseTerms), signalTerm(xNear3), signalTerm(xCentroid), signalTerm(xToolCos), signalTerm("x_soft_0.05"))
		pm := matrix(pool, ts)
		for _, obj := range []objective{objectives[0], objectives[5]} {
			w := fitGeneric(pm, len(ts), obj, []float64{0, 0.25, 0.5, 1, 2, 3, 4, 6, 8, 12, 16})
			c, n := countAll(pm, w), float64(len(pm))
			t.Logf("all terms fitted on the test rows, %s: w %v hit %.3f R@5 %.3f", obj.name, w[1:], c.hit/n, c.r5/n)
		}
	}
	if os.Getenv("LEARNQ_MMR_ONLY") != "" {
		return
	}
	grid := []float64{0, 0.25, 0.5, 1, 2, 4, 6, 8}
	var softs [][]term
	for _, tau := range softTaus {
		softs = append(softs, []term{signalTerm(fmt.Sprintf("x_soft_%g", tau))})
	}
	for _, ex := range append(softs, [][]term{nil, {signalTerm(xNear3)}, {signalTerm(xCentroid)}, {signalTerm(xToolCos)}, {signalTerm(xNear3), signalTerm(xCentroid), signalTerm(xToolCos)}}...) {
		logExtraTerms(t, fit, test, pool, ex, grid)
	}
}

// intentsBefore is each tool's learned intents from es as usageOf keeps
// them: distinct, the latest maxPerTool.
func intentsBefore(es []labels.Example) map[string][]string {
	seen := map[[2]string]bool{}
	out := map[string][]string{}
	for i := len(es) - 1; i >= 0; i-- {
		k := [2]string{es[i].Text, es[i].Tool}
		if seen[k] || len(out[es[i].Tool]) >= maxPerTool {
			continue
		}
		seen[k] = true
		out[es[i].Tool] = append(out[es[i].Tool], es[i].Text)
	}
	return out
}

// logExtraTerms fits training's terms and ex on fit under training's
// objective and under hit + R@5, and logs how each ranks test (and pool,
// when given).
func logExtraTerms(t *testing.T, fit, test, pool []xrow, ex []term, grid []float64) {
	t.Helper()
	ts := append(slices.Clone(baseTerms), ex...)
	fm, tm := matrix(fit, ts), matrix(test, ts)
	names := ""
	for _, t := range ex {
		names += t.name + " "
	}
	for _, obj := range []objective{objectives[0], objectives[2]} {
		w := fitGeneric(fm, len(ts), obj, grid)
		c, n := countAll(tm, w), float64(len(tm))
		line := fmt.Sprintf("+[%s] %s w %v: best 50 hit %.3f R@5 %.3f", names, obj.name, w[1:], c.hit/n, c.r5/n)
		if pool != nil {
			pm := matrix(pool, ts)
			c = countAll(pm, w)
			line += fmt.Sprintf("; whole pool hit %.3f R@5 %.3f", c.hit/float64(len(pm)), c.r5/float64(len(pm)))
		}
		t.Log(line)
	}
	if len(ex) > 0 { // the extra terms alone
		w := make([]float64, len(ts))
		for j := len(baseTerms); j < len(ts); j++ {
			w[j] = 1
		}
		c, n := countAll(tm, w), float64(len(tm))
		t.Logf("   %s alone: best 50 hit %.3f R@5 %.3f", names, c.hit/n, c.r5/n)
	}
}

// historyVectors are the positive examples of LEARNQ_AUDIT over the
// registry LEARNQ_TOOLS, in time order, and encodeAll's vectors of them.
func historyVectors(t *testing.T) ([]labels.Example, map[string][]float32) {
	t.Helper()
	tools, err := registry.LoadFile(os.Getenv("LEARNQ_TOOLS"))
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := ReadAuditFile(os.Getenv("LEARNQ_AUDIT"))
	if err != nil {
		t.Fatal(err)
	}
	pos, _ := (labels.Guard{}).Apply(labels.Derive(recs, labels.Options{}))
	pos = slices.DeleteFunc(pos, func(e labels.Example) bool { return e.Negative })
	vecs := encodeAll(t, pos, tools)
	return pos, vecs
}

// encodeAll is the sentence encoder's vector of every example text and of
// every tool's text (keyed "tool:<id>"), as unit vectors, cached in
// LEARNQ_VECS; LEARNQ_VEC_ENCODER=words embeds with the word vectors instead.
func encodeAll(t *testing.T, pos []labels.Example, tools []schemas.Manifest) map[string][]float32 {
	path := os.Getenv("LEARNQ_VECS")
	out := map[string][]float32{}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	var enc embed.Embedder
	var err error
	if os.Getenv("LEARNQ_VEC_ENCODER") == "words" {
		enc, err = embed.NewLocal()
	} else {
		enc, err = embed.NewEncoder("use-lite")
	}
	if err != nil {
		t.Fatal(err)
	}
	var keys, texts []string
	seen := map[string]bool{}
	for _, e := range pos {
		if !seen[e.Text] {
			seen[e.Text] = true
			keys, texts = append(keys, e.Text), append(texts, e.Text)
		}
	}
	tt, _ := enc.(embed.ToolTexter)
	for _, m := range tools {
		text := embed.ToolText(m)
		if tt != nil {
			text = tt.ToolText(m)
		}
		keys, texts = append(keys, "tool:"+m.ID), append(texts, text)
	}
	vs, err := enc.EmbedDocuments(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range keys {
		out[k] = embed.Normalize(vs[i])
	}
	b, _ := json.Marshal(out)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return out
}

func dotf(a, b []float32) float32 {
	var s float32
	for i := range min(len(a), len(b)) {
		s += a[i] * b[i]
	}
	return s
}

// mmrRecall is recall@5 when positions 2–5 are filled greedily by score
// minus lambda times the candidate's best cosine (sim) to a tool already
// listed (maximal marginal relevance): the first stays, so hit@1 does too.
func mmrRecall(rs []xrow, w discover.UsageWeights, sim func(a, b string) float64, lambda float64) float64 {
	r5 := 0.0
	for _, r := range rs {
		rk := ranked(r.row, w)
		if len(rk) == 0 {
			continue
		}
		picked := []discover.Explained{rk[0]}
		rest := slices.Clone(rk[1:min(len(rk), 30)])
		for len(picked) < 5 && len(rest) > 0 {
			best, bi := math.Inf(-1), 0
			for i, c := range rest {
				red := 0.0
				for _, p := range picked {
					red = math.Max(red, sim(c.ToolID, p.ToolID))
				}
				if v := rescore(c, w) - lambda*red; v > best {
					best, bi = v, i
				}
			}
			picked = append(picked, rest[bi])
			rest = slices.Delete(rest, bi, bi+1)
		}
		if slices.ContainsFunc(picked, func(c discover.Explained) bool { return c.ToolID == r.gold }) {
			r5++
		}
	}
	return r5 / float64(len(rs))
}
