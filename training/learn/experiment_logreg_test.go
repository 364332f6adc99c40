//go:build experiment

package learn

// A softmax regression over the sentence encoder's vectors of the learned
// intents, against the nearest-intent vote and the centroid, each alone:
// fitted on the history before its latest tenth, scored on that tenth.
//
//	LEARNQ_TOOLS=… LEARNQ_AUDIT=… LEARNQ_VECS=/tmp/vecs.json \
//	  go test -tags experiment -run TestExperimentLogReg -v ./training/learn/

import (
	"context"
	"fmt"
	"github.com/toolyard/toolyard/training/labels"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

func TestExperimentLogReg(t *testing.T) {
	test, vecs, toolIDs, idx, X, Y := vectorSplit(t)
	score := func(name string, f func(q []float32) []float64) {
		var hit, r5 float64
		for _, ex := range test {
			s := f(vecs[ex.Text])
			g, ok := idx[ex.Tool]
			if !ok {
				continue
			}
			rank := 0
			for k, v := range s {
				if v > s[g] || v == s[g] && k < g {
					rank++
				}
			}
			if rank == 0 {
				hit++
			}
			if rank < 5 {
				r5++
			}
		}
		n := float64(len(test))
		t.Logf("%-28s hit@1 %.3f R@5 %.3f (%d requests)", name, hit/n, r5/n, len(test))
	}
	score("nearest 10 vote", func(q []float32) []float64 {
		type nb struct {
			c float64
			y int
		}
		var ns []nb
		for i, x := range X {
			ns = append(ns, nb{float64(dotf(q, x)), Y[i]})
		}
		slices.SortFunc(ns, func(a, b nb) int { return cmpf(b.c, a.c) })
		s := make([]float64, len(toolIDs))
		for _, n := range ns[:10] {
			s[n.y] += n.c
		}
		return s
	})
	cen := make([][]float64, len(toolIDs))
	for i, x := range X {
		if cen[Y[i]] == nil {
			cen[Y[i]] = make([]float64, len(x))
		}
		for j, v := range x {
			cen[Y[i]][j] += float64(v)
		}
	}
	for _, c := range cen {
		n := 0.0
		for _, v := range c {
			n += v * v
		}
		for j := range c {
			c[j] /= math.Sqrt(n)
		}
	}
	score("centroid", func(q []float32) []float64 {
		s := make([]float64, len(toolIDs))
		for k, c := range cen {
			for j, v := range c {
				s[k] += v * float64(q[j])
			}
		}
		return s
	})
	var ints []discover.LearnedIntent
	uv := &discover.UsageVectors{Dim: len(X[0])}
	for i, x := range X {
		ints = append(ints, discover.LearnedIntent{Tool: toolIDs[Y[i]], Text: fmt.Sprint(i)})
		uv.Vectors = append(uv.Vectors, x)
	}
	start := time.Now()
	vc, err := fitVectorClassifier(context.Background(), uv, ints, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fitVectorClassifier took %v", time.Since(start))
	score("fitVectorClassifier", func(q []float32) []float64 {
		p := discover.Softmax(vc.W, q, nil)
		out := make([]float64, len(toolIDs))
		for k, id := range vc.Tools {
			out[idx[id]] = p[k]
		}
		return out
	})
	if os.Getenv("LEARNQ_FIT_ONLY") != "" {
		return
	}
	for _, l2 := range []float64{1e-4, 1e-3} {
		for _, scale := range []float64{10} {
			W := softmaxFit(X, Y, len(toolIDs), l2, scale, 120)
			score("softmax l2 "+ftoa(l2)+" scale "+ftoa(scale), func(q []float32) []float64 { return softmaxScores(W, q, scale) })
		}
	}
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// softmaxFit fits W (classes × (dim+1)) on unit vectors scaled by scale, by
// full-batch Adam on the mean cross-entropy plus l2 ‖W‖².
func softmaxFit(X [][]float32, Y []int, classes int, l2, scale float64, iters int) [][]float64 {
	d := len(X[0]) + 1
	W := make([][]float64, classes)
	m, v := make([][]float64, classes), make([][]float64, classes)
	for k := range W {
		W[k], m[k], v[k] = make([]float64, d), make([]float64, d), make([]float64, d)
	}
	G := make([][]float64, classes)
	for k := range G {
		G[k] = make([]float64, d)
	}
	const lr, b1, b2, eps = 0.05, 0.9, 0.999, 1e-8
	for it := 1; it <= iters; it++ {
		for k := range G {
			clear(G[k])
		}
		var wg sync.WaitGroup
		parts := runtime.GOMAXPROCS(0)
		Gs := make([][][]float64, parts)
		for part := range parts {
			Gs[part] = make([][]float64, classes)
			for k := range Gs[part] {
				Gs[part][k] = make([]float64, d)
			}
			wg.Add(1)
			go func(G [][]float64) {
				defer wg.Done()
				x := make([]float64, d)
				p := make([]float64, classes)
				for i := part; i < len(X); i += parts {
					xi := X[i]
					for j, f := range xi {
						x[j] = float64(f) * scale
					}
					x[d-1] = 1
					mx := math.Inf(-1)
					for k := range W {
						z := 0.0
						for j, f := range x {
							z += W[k][j] * f
						}
						p[k] = z
						mx = math.Max(mx, z)
					}
					sum := 0.0
					for k := range p {
						p[k] = math.Exp(p[k] - mx)
						sum += p[k]
					}
					for k := range p {
						g := p[k] / sum
						if k == Y[i] {
							g--
						}
						if math.Abs(g) < 1e-6 {
							continue
						}
						for j, f := range x {
							G[k][j] += g * f
						}
					}
				}
			}(Gs[part])
		}
		wg.Wait()
		for _, g := range Gs {
			for k := range G {
				for j := range G[k] {
					G[k][j] += g[k][j]
				}
			}
		}
		n := float64(len(X))
		for k := range W {
			for j := range W[k] {
				g := G[k][j]/n + 2*l2*W[k][j]
				m[k][j] = b1*m[k][j] + (1-b1)*g
				v[k][j] = b2*v[k][j] + (1-b2)*g*g
				mh := m[k][j] / (1 - math.Pow(b1, float64(it)))
				vh := v[k][j] / (1 - math.Pow(b2, float64(it)))
				W[k][j] -= lr * mh / (math.Sqrt(vh) + eps)
			}
		}
	}
	return W
}

func softmaxScores(W [][]float64, q []float32, scale float64) []float64 {
	s := make([]float64, len(W))
	d := len(q)
	for k, w := range W {
		z := w[d]
		for j, f := range q {
			z += w[j] * float64(f) * scale
		}
		s[k] = z
	}
	return s
}

// TestExperimentLogRegTerm adds the softmax regression's probability (each
// tenth's regression fitted on everything before it) to the rows of
// LEARNQ_ROWS as one more term beside training's five, fitted on the 50–90 %
// tenths, scored on the latest.
func TestExperimentLogRegTerm(t *testing.T) {
	all, _ := recallRows(t)
	pos, vecs := historyVectors(t)
	all = segs(all, 5, 9)
	for seg := 5; seg <= 9; seg++ {
		lo, hi := len(pos)*seg/10, len(pos)*(seg+1)/10
		intents, ids := toolsBefore(pos[:lo])
		var X [][]float32
		var Y []int
		for k, id := range ids {
			for _, text := range intents[id] {
				X, Y = append(X, vecs[text]), append(Y, k)
			}
		}
		W := softmaxFit(X, Y, len(ids), 1e-3, 10, 120)
		n := 0
		for k := range all {
			r := &all[k]
			if r.seg != seg {
				continue
			}
			ex := pos[lo+n]
			n++
			if ex.Tool != r.gold || lo+n > hi {
				t.Fatalf("row %d of tenth %d is not example %d", k, seg, lo+n-1)
			}
			z := softmaxScores(W, vecs[ex.Text], 10)
			mx := slices.Max(z)
			sum := 0.0
			for _, v := range z {
				sum += math.Exp(v - mx)
			}
			p := map[string]float64{}
			for k, id := range ids {
				p[id] = math.Exp(z[k]-mx) / sum
			}
			for i := range r.cands {
				c := &r.cands[i]
				c.Signals["x_sm_p"] = p[c.ToolID]
				c.Signals["x_sm_sqrt"] = math.Sqrt(p[c.ToolID])
				c.Signals["x_sm_log"] = math.Max(0, 1+math.Log10(p[c.ToolID]+1e-4)/4)
			}
		}
		t.Logf("tenth %d annotated", seg)
	}
	fit, test := segs(all, 5, 8), segs(all, 9, 9)
	grid := []float64{0, 0.25, 0.5, 1, 2, 4, 6, 8}
	for _, ex := range [][]term{nil, {signalTerm("x_sm_p")}, {signalTerm("x_sm_sqrt")}, {signalTerm("x_sm_log")}, {rankTerm("x_sm_rr", "x_sm_p")}} {
		logExtraTerms(t, fit, test, nil, ex, grid)
	}
}

// TestExperimentLogRegConcat fits the regression on the word vectors and the
// sentence encoder's side by side (LEARNQ_VECS_WORDS, LEARNQ_VECS_ENC: the
// caches of each), against each alone, on the latest tenth.
func TestExperimentLogRegConcat(t *testing.T) {
	if os.Getenv("LEARNQ_VECS_WORDS") == "" {
		t.Skip("experiment: set LEARNQ_VECS_WORDS, LEARNQ_VECS_ENC, LEARNQ_TOOLS, LEARNQ_AUDIT")
	}
	t.Setenv("LEARNQ_VECS", os.Getenv("LEARNQ_VECS_WORDS"))
	t.Setenv("LEARNQ_VEC_ENCODER", "words")
	pos, words := historyVectors(t)
	t.Setenv("LEARNQ_VECS", os.Getenv("LEARNQ_VECS_ENC"))
	t.Setenv("LEARNQ_VEC_ENCODER", "")
	_, enc := historyVectors(t)
	lo := len(pos) * 9 / 10
	intents, ids := toolsBefore(pos[:lo])
	both := func(text string) []float32 {
		w, e := words[text], enc[text]
		if w == nil || e == nil {
			return nil
		}
		return embed.Normalize(append(slices.Clone(w), e...))
	}
	for _, c := range []struct {
		name string
		vec  func(string) []float32
	}{{"words", func(s string) []float32 { return words[s] }}, {"encoder", func(s string) []float32 { return enc[s] }}, {"both", both}} {
		uv := &discover.UsageVectors{}
		var ints []discover.LearnedIntent
		for _, id := range ids {
			for _, text := range intents[id] {
				v := c.vec(text)
				uv.Vectors = append(uv.Vectors, v)
				ints = append(ints, discover.LearnedIntent{Tool: id, Text: text})
				if v != nil {
					uv.Dim = len(v)
				}
			}
		}
		vc, err := fitVectorClassifier(context.Background(), uv, ints, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var hit, r5 float64
		for _, ex := range pos[lo:] {
			q := c.vec(ex.Text)
			if q == nil {
				continue
			}
			p := discover.Softmax(vc.W, q, nil)
			g := slices.Index(vc.Tools, ex.Tool)
			if g < 0 {
				continue
			}
			rank := 0
			for k := range p {
				if p[k] > p[g] || p[k] == p[g] && k < g {
					rank++
				}
			}
			hit += b2f(rank == 0)
			r5 += b2f(rank < 5)
		}
		n := float64(len(pos) - lo)
		t.Logf("%-8s hit@1 %.3f R@5 %.3f", c.name, hit/n, r5/n)
	}
}

// vectorSplit is the vector experiments' data: the history's latest tenth
// (test) and the learned intents before it as vectors and tool indexes
// (learnedXY), with every text's vector; it skips without LEARNQ_VECS.
func vectorSplit(t *testing.T) (test []labels.Example, vecs map[string][]float32, ids []string, idx map[string]int, X [][]float32, Y []int) {
	t.Helper()
	if os.Getenv("LEARNQ_VECS") == "" {
		t.Skip("experiment: set LEARNQ_VECS, LEARNQ_TOOLS, LEARNQ_AUDIT")
	}
	pos, vecs := historyVectors(t)
	lo := len(pos) * 9 / 10
	ids, idx, X, Y = learnedXY(pos[:lo], vecs)
	return pos[lo:], vecs, ids, idx, X, Y
}

// learnedXY are the learned intents of es (toolsBefore) as vectors and
// tool indexes, with the tools and their indexes; intents without a vector
// are left out.
func learnedXY(es []labels.Example, vecs map[string][]float32) (ids []string, idx map[string]int, X [][]float32, Y []int) {
	intents, ids := toolsBefore(es)
	idx = map[string]int{}
	for i, id := range ids {
		idx[id] = i
	}
	for _, id := range ids {
		for _, text := range intents[id] {
			if v := vecs[text]; v != nil {
				X, Y = append(X, v), append(Y, idx[id])
			}
		}
	}
	return ids, idx, X, Y
}

// toolsBefore is intentsBefore's learned intents of es and their tools,
// sorted.
func toolsBefore(es []labels.Example) (map[string][]string, []string) {
	intents := intentsBefore(es)
	ids := make([]string, 0, len(intents))
	for id := range intents {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return intents, ids
}
