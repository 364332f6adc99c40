package learn

import (
	"context"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/toolyard/toolyard/workers/discover"
)

// The vector classifier's fit (discover.VectorClassifier): a softmax
// regression over the learned intents' unit vectors, by minibatch Adam.
// The loop is written here, on gonum's BLAS for the two matrix products
// that are most of its work: a machine-learning framework would bring far
// more than a softmax regression needs, with less control over its cost and
// its determinism (two trainings on the same history, on one kind of CPU,
// must write the same model: gonum computes each block of a product in one
// goroutine, in a fixed order). Settings chosen on the MetaTool learn
// history, fitted before its latest tenth and scored on it
// (training/README.md, "Ranking: a vector classifier").
const (
	// vectorClassScale multiplies the unit vectors: cosines span about
	// [-0.2, 1], too narrow for logits that tell 200 tools apart.
	vectorClassScale = 10
	// vectorClassL2 is the penalty on the squared weights (1e-4 ranked
	// worse on the later tenth: hit@1 0.722 against 0.748).
	vectorClassL2 = 1e-3
	// vectorClassRate is Adam's first step, decayed linearly to 0 over the
	// fit (0.003 and 0.01 ranked hit@1 0.629 and 0.649 with the word
	// vectors, against 0.657; undecayed, 0.003 gave 0.724–0.742 with the
	// sentence encoder as three steps more or fewer fell, 0.03 0.578).
	vectorClassRate  = 0.006
	vectorClassBatch = 128
	// vectorClassPasses bounds the work: epochs × examples, at least
	// vectorClassMinEpochs and at most vectorClassMaxEpochs epochs. About
	// 500 batches is what the fit needs (on the MetaTool history: 12 epochs
	// of its 4,800 intents; 6 ranked hit@1 0.641 / 4 0.584 against 0.649
	// with the word vectors, the sentence encoder's alike), and what a
	// large history gets, over at least two epochs.
	vectorClassPasses    = 64_000
	vectorClassMinEpochs = 2
	vectorClassMaxEpochs = 12
	// vectorClassMaxExamples bounds the examples (evenly spread over the
	// intents, which come a tool at a time, oldest first) a fit reads.
	vectorClassMaxExamples = 50_000
	// vectorClassWork bounds the multiply-adds of a fit's forward pass
	// (examples read × tools × dimensions; the backward pass costs as much
	// again), about 3 s on this machine, down to one epoch: with a thousand
	// tools each example costs five times what it does on the MetaTool
	// registry, and training ranks six usage models (four folds, the test
	// slice, the version).
	vectorClassWork = 6_000_000_000
	// vectorClassWarmShare divides the batches of a fit that starts from
	// an earlier part of the history's weights.
	vectorClassWarmShare = 3
)

// fitVectorClassifier fits P(tool | request vector) on the learned
// intents' vectors (vs.Vectors by intent position; nil entries are
// skipped); nil when fewer than two tools have a vector. from, when set,
// is a classifier fitted on an earlier part of the same history (training
// fits one per fold, each history holding the one before): the fit starts
// from its weights, for the tools it knows, and takes a third of the
// batches. progress, when set, hears of the batches done.
func fitVectorClassifier(ctx context.Context, vs *discover.UsageVectors, intents []discover.LearnedIntent, from *discover.VectorClassifier, progress func(done, total int)) (*discover.VectorClassifier, error) {
	if vs == nil || vs.Dim == 0 || len(vs.Vectors) != len(intents) {
		return nil, nil
	}
	idx := map[string]int{}
	var tools []string
	var xs [][]float32
	var ys []int
	for i, v := range vs.Vectors {
		if v == nil {
			continue
		}
		t := intents[i].Tool
		k, ok := idx[t]
		if !ok {
			k = len(tools)
			idx[t] = k
			tools = append(tools, t)
		}
		xs, ys = append(xs, v), append(ys, k)
	}
	if len(tools) < 2 {
		return nil, nil
	}
	if n := len(xs); n > vectorClassMaxExamples {
		sx, sy := make([][]float32, vectorClassMaxExamples), make([]int, vectorClassMaxExamples)
		for i := range sx {
			sx[i], sy[i] = xs[i*n/vectorClassMaxExamples], ys[i*n/vectorClassMaxExamples]
		}
		xs, ys = sx, sy
	}
	width := vs.Dim + 1 // the weights, then the bias
	passes := min(max(vectorClassPasses, vectorClassMinEpochs*len(xs)), vectorClassMaxEpochs*len(xs))
	passes = min(passes, max(len(xs), vectorClassWork/(len(tools)*width)))
	if from != nil && from.Dim == vs.Dim {
		passes = max(len(xs), passes/vectorClassWarmShare)
	} else {
		from = nil
	}
	steps := (passes + vectorClassBatch - 1) / vectorClassBatch
	total := steps
	if progress == nil {
		progress = func(int, int) {}
	}
	a := newAdam(len(tools) * width)
	if from != nil {
		warmStart(a.w, tools, width, from)
	}
	w := blas32.General{Rows: len(tools), Cols: width, Stride: width, Data: a.w}
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(1, 2)) // the same shuffles every training
	xb := blas32.General{Cols: width, Stride: width, Data: make([]float32, vectorClassBatch*width)}
	zb := blas32.General{Cols: len(tools), Stride: len(tools), Data: make([]float32, vectorClassBatch*len(tools))}
	g := blas32.General{Rows: len(tools), Cols: width, Stride: width, Data: make([]float32, len(tools)*width)}
	for steps > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for lo := 0; lo < len(order) && steps > 0; lo, steps = lo+vectorClassBatch, steps-1 {
			batch := order[lo:min(lo+vectorClassBatch, len(order))]
			xb.Rows, zb.Rows = len(batch), len(batch)
			for r, i := range batch {
				row := xb.Data[r*width : (r+1)*width]
				for j, f := range xs[i] {
					row[j] = f * vectorClassScale
				}
				row[vs.Dim] = 1
			}
			// Z = X Wᵀ; then Z becomes P − onehot(y), the cross-entropy's
			// gradient by score; G = Zᵀ X.
			blas32.Gemm(blas.NoTrans, blas.Trans, 1, xb, w, 0, zb)
			for r, i := range batch {
				discover.SoftmaxInPlace(zb.Data[r*len(tools) : (r+1)*len(tools)])
				zb.Data[r*len(tools)+ys[i]]--
			}
			blas32.Gemm(blas.Trans, blas.NoTrans, 1, zb, xb, 0, g)
			// The step decays linearly to nothing: the last weights are then
			// an average of the late ones rather than wherever the last few
			// minibatches threw them.
			a.step(g.Data, float32(len(batch)), vectorClassRate*float32(steps)/float32(total))
			if done := total - steps + 1; done%50 == 0 || done == total {
				progress(done, total)
			}
		}
	}
	// The search reads unit vectors: the scale goes into the weights.
	rows := make([][]float32, len(tools))
	for k := range rows {
		rows[k] = a.w[k*width : (k+1)*width : (k+1)*width]
		for j := range rows[k][:vs.Dim] {
			rows[k][j] *= vectorClassScale
		}
	}
	return &discover.VectorClassifier{Tools: tools, Dim: vs.Dim, W: rows}, nil
}

// warmStart copies from's weights into w (a row of width per tool of
// tools), for the tools it knows, undoing the scale the search's weights
// carry.
func warmStart(w []float32, tools []string, width int, from *discover.VectorClassifier) {
	rows := make(map[string][]float32, len(from.Tools))
	for k, t := range from.Tools {
		rows[t] = from.W[k]
	}
	for k, t := range tools {
		row, ok := rows[t]
		if !ok {
			continue
		}
		dst := w[k*width : (k+1)*width]
		copy(dst, row)
		for j := range dst[:width-1] {
			dst[j] /= vectorClassScale
		}
	}
}

// adam is the Adam optimiser's state over the weights, flat.
type adam struct {
	w, m, v []float32
	t       int
}

func newAdam(n int) *adam {
	return &adam{w: make([]float32, n), m: make([]float32, n), v: make([]float32, n)}
}

// step moves the weights by rate against the batch's summed gradient over
// n examples, plus the L2 penalty's.
func (a *adam) step(g []float32, n, rate float32) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	a.t++
	c1, c2 := float32(1-math.Pow(b1, float64(a.t))), float32(1-math.Pow(b2, float64(a.t)))
	m, v, g := a.m, a.v[:len(a.m)], g[:len(a.m)]
	for j, wj := range a.w[:len(a.m)] {
		gr := g[j]/n + 2*vectorClassL2*wj
		m[j] = b1*m[j] + (1-b1)*gr
		v[j] = b2*v[j] + (1-b2)*gr*gr
		a.w[j] = wj - rate*(m[j]/c1)/(float32(math.Sqrt(float64(v[j]/c2)))+eps)
	}
}
