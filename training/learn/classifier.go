package learn

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/toolyard/toolyard/training/labels"
	"github.com/toolyard/toolyard/workers/discover"
)

// classifierConfig are the fitting settings of the usage classifier: a
// multinomial logistic regression, fitted by AdaGrad. Written here rather
// than taken from a library: Go's machine-learning packages fit dense
// matrices, and this one is sparse in its inputs (a request has a dozen
// terms of a vocabulary of thousands) and must read terms exactly as the
// engine analyses them.
type classifierConfig struct {
	epochs int
	rate   float64
	l2     float64
	// minDF drops terms seen in fewer examples: a word one example used
	// teaches that example, not the tool.
	minDF int
	// keep drops weights smaller than this from the stored model.
	keep float64
}

var defaultClassifier = classifierConfig{epochs: 12, rate: 0.3, l2: 1e-5, minDF: 2, keep: 0.02}

// fitClassifier fits P(tool | request terms) on the examples' intents.
func fitClassifier(e *discover.Engine, es []labels.Example, cfg classifierConfig) *discover.UsageClassifier {
	toolIdx := map[string]int{}
	var tools []string
	type row struct {
		terms []int
		tool  int
	}
	df := map[string]int{}
	termsOf := make([][]string, len(es))
	for i, ex := range es {
		termsOf[i] = e.ClassifierTerms(ex.Text)
		for _, t := range termsOf[i] {
			df[t]++
		}
		if _, ok := toolIdx[ex.Tool]; !ok {
			toolIdx[ex.Tool] = len(tools)
			tools = append(tools, ex.Tool)
		}
	}
	vocab := map[string]int{}
	var names []string
	rows := make([]row, 0, len(es))
	for i, ex := range es {
		r := row{tool: toolIdx[ex.Tool]}
		for _, t := range termsOf[i] {
			if df[t] < cfg.minDF {
				continue
			}
			j, ok := vocab[t]
			if !ok {
				j = len(names)
				vocab[t] = j
				names = append(names, t)
			}
			r.terms = append(r.terms, j)
		}
		rows = append(rows, r)
	}
	c := len(tools)
	w := make([][]float64, len(names))
	g := make([][]float64, len(names)) // AdaGrad's sums of squared gradients
	for j := range w {
		w[j], g[j] = make([]float64, c), make([]float64, c)
	}
	b, gb := make([]float64, c), make([]float64, c)
	z := make([]float64, c)
	rng := rand.New(rand.NewPCG(1, 2)) // the same model from the same examples
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	for range cfg.epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			r := rows[i]
			const x = 1 // binary inputs, as search reads them
			copy(z, b)
			for _, j := range r.terms {
				for k, v := range w[j] {
					z[k] += v * x
				}
			}
			softmax(z)
			z[r.tool]--
			for k, d := range z {
				gb[k] += d * d
				b[k] -= cfg.rate * d / (math.Sqrt(gb[k]) + 1e-8)
			}
			for _, j := range r.terms {
				for k, d := range z {
					gr := d*x + cfg.l2*w[j][k]
					g[j][k] += gr * gr
					w[j][k] -= cfg.rate * gr / (math.Sqrt(g[j][k]) + 1e-8)
				}
			}
		}
	}
	out := &discover.UsageClassifier{Tools: tools, Bias: b, Terms: map[string][]discover.TermWeight{}}
	for j, name := range names {
		var ws []discover.TermWeight
		for k, v := range w[j] {
			if math.Abs(v) >= cfg.keep {
				ws = append(ws, discover.TermWeight{Tool: k, W: v})
			}
		}
		if len(ws) > 0 {
			out.Terms[name] = slices.Clip(ws)
		}
	}
	return out
}

func softmax(z []float64) {
	top := math.Inf(-1)
	for _, v := range z {
		top = math.Max(top, v)
	}
	var sum float64
	for i, v := range z {
		z[i] = math.Exp(v - top)
		sum += z[i]
	}
	for i := range z {
		z[i] /= sum
	}
}
