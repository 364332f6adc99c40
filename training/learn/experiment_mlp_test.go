//go:build experiment

package learn

// A one-hidden-layer network (ReLU) over the request's unit vector, against
// the softmax regression, each alone: fitted on the history before its
// latest tenth, scored on that tenth.
//
//	LEARNQ_TOOLS=… LEARNQ_AUDIT=… LEARNQ_VECS=/tmp/vecs.json [LEARNQ_VEC_ENCODER=words] \
//	  go test -tags experiment -run TestExperimentMLP -v ./training/learn/

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

func TestExperimentMLP(t *testing.T) {
	test, vecs, ids, idx, X, Y := vectorSplit(t)
	for _, hidden := range []int{256, 512, 1024} {
		for _, epochs := range []int{12, 24} {
			for _, dropout := range []float32{0, 0.3} {
				m := fitMLP(X, Y, len(ids), hidden, epochs, 0.002, 1e-4, dropout)
				var hit, r5, n float64
				for _, ex := range test {
					g, ok := idx[ex.Tool]
					q := vecs[ex.Text]
					if !ok || q == nil {
						n++
						continue
					}
					n++
					s := m.scores(q)
					rank := 0
					for k, v := range s {
						if v > s[g] || v == s[g] && k < g {
							rank++
						}
					}
					hit += b2f(rank == 0)
					r5 += b2f(rank < 5)
				}
				t.Logf("hidden %4d epochs %2d dropout %.1f: hit@1 %.3f R@5 %.3f", hidden, epochs, dropout, hit/n, r5/n)
			}
		}
	}
}

type mlp struct {
	d, h, c int
	w1, b1  []float32 // h×d, h
	w2, b2  []float32 // c×h, c
	scale   float32
}

func (m *mlp) hiddenOf(x []float32) []float32 {
	a := make([]float32, m.h)
	for i := range a {
		s := m.b1[i]
		row := m.w1[i*m.d : (i+1)*m.d]
		for j, v := range x {
			s += row[j] * v * m.scale
		}
		a[i] = max(s, 0)
	}
	return a
}

func (m *mlp) scores(x []float32) []float64 {
	a := m.hiddenOf(x)
	out := make([]float64, m.c)
	for k := range out {
		s := m.b2[k]
		row := m.w2[k*m.h : (k+1)*m.h]
		for j, v := range a {
			s += row[j] * v
		}
		out[k] = float64(s)
	}
	return out
}

// fitMLP fits by minibatch Adam (rate decayed linearly to 0), batch 128.
func fitMLP(X [][]float32, Y []int, classes, hidden, epochs int, rate, l2 float64, dropout float32) *mlp {
	d := len(X[0])
	rng := rand.New(rand.NewPCG(1, 2))
	m := &mlp{d: d, h: hidden, c: classes, scale: 3,
		w1: make([]float32, hidden*d), b1: make([]float32, hidden),
		w2: make([]float32, classes*hidden), b2: make([]float32, classes)}
	for i := range m.w1 {
		m.w1[i] = float32(rng.NormFloat64() * math.Sqrt(2/float64(d)))
	}
	for i := range m.w2 {
		m.w2[i] = float32(rng.NormFloat64() * math.Sqrt(1/float64(hidden)))
	}
	params := [][]float32{m.w1, m.b1, m.w2, m.b2}
	type adamState struct{ m, v []float32 }
	st := make([]adamState, len(params))
	for i, p := range params {
		st[i] = adamState{make([]float32, len(p)), make([]float32, len(p))}
	}
	const batch = 128
	order := make([]int, len(X))
	for i := range order {
		order[i] = i
	}
	steps := epochs * ((len(X) + batch - 1) / batch)
	step := 0
	xb := make([]float32, batch*d)
	hb := make([]float32, batch*hidden)
	mask := make([]float32, batch*hidden)
	zb := make([]float32, batch*classes)
	gz := make([]float32, batch*classes)
	gh := make([]float32, batch*hidden)
	grads := [][]float32{make([]float32, len(m.w1)), make([]float32, len(m.b1)), make([]float32, len(m.w2)), make([]float32, len(m.b2))}
	for ep := 0; ep < epochs; ep++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for s := 0; s < len(order); s += batch {
			ids := order[s:min(s+batch, len(order))]
			n := len(ids)
			for r, i := range ids {
				for j, v := range X[i] {
					xb[r*d+j] = v * m.scale
				}
			}
			// h = relu(x W1ᵀ + b1)
			gemm(blas.NoTrans, blas.Trans, n, hidden, d, xb, d, m.w1, d, hb, hidden, 0)
			for r := 0; r < n; r++ {
				for j := 0; j < hidden; j++ {
					v := hb[r*hidden+j] + m.b1[j]
					mk := float32(1)
					if dropout > 0 {
						if rng.Float32() < dropout {
							mk = 0
						} else {
							mk = 1 / (1 - dropout)
						}
					}
					if v <= 0 {
						mk = 0
					}
					mask[r*hidden+j] = mk
					hb[r*hidden+j] = max(v, 0) * mk
				}
			}
			gemm(blas.NoTrans, blas.Trans, n, classes, hidden, hb, hidden, m.w2, hidden, zb, classes, 0)
			for r, i := range ids {
				z := zb[r*classes : (r+1)*classes]
				mx := float32(math.Inf(-1))
				for k := range z {
					z[k] += m.b2[k]
					mx = max(mx, z[k])
				}
				var sum float64
				for k := range z {
					e := math.Exp(float64(z[k] - mx))
					gz[r*classes+k] = float32(e)
					sum += e
				}
				for k := range z {
					gz[r*classes+k] /= float32(sum)
				}
				gz[r*classes+Y[i]] -= 1
			}
			// gradients
			gemm(blas.Trans, blas.NoTrans, classes, hidden, n, gz, classes, hb, hidden, grads[2], hidden, 0)
			clear(grads[3])
			for r := 0; r < n; r++ {
				for k := 0; k < classes; k++ {
					grads[3][k] += gz[r*classes+k]
				}
			}
			gemm(blas.NoTrans, blas.NoTrans, n, hidden, classes, gz, classes, m.w2, hidden, gh, hidden, 0)
			for j := range gh[:n*hidden] {
				gh[j] *= mask[j]
			}
			gemm(blas.Trans, blas.NoTrans, hidden, d, n, gh, hidden, xb, d, grads[0], d, 0)
			clear(grads[1])
			for r := 0; r < n; r++ {
				for j := 0; j < hidden; j++ {
					grads[1][j] += gh[r*hidden+j]
				}
			}
			step++
			lr := float32(rate * (1 - float64(step-1)/float64(steps)))
			const b1, b2, eps = 0.9, 0.999, 1e-8
			c1, c2 := float32(1-math.Pow(b1, float64(step))), float32(1-math.Pow(b2, float64(step)))
			for pi, p := range params {
				g, mm, vv := grads[pi], st[pi].m, st[pi].v
				for j, w := range p {
					gr := g[j]/float32(n) + float32(2*l2)*w
					mm[j] = b1*mm[j] + (1-b1)*gr
					vv[j] = b2*vv[j] + (1-b2)*gr*gr
					p[j] = w - lr*(mm[j]/c1)/(float32(math.Sqrt(float64(vv[j]/c2)))+eps)
				}
			}
		}
	}
	return m
}

// gemm is C (m×n) = op(A) op(B) + beta C, row-major.
func gemm(ta, tb blas.Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, beta float32) {
	ar, ac := m, k
	if ta == blas.Trans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tb == blas.Trans {
		br, bc = n, k
	}
	blas32.Gemm(ta, tb, 1,
		blas32.General{Rows: ar, Cols: ac, Stride: lda, Data: a[:(ar-1)*lda+ac]},
		blas32.General{Rows: br, Cols: bc, Stride: ldb, Data: b[:(br-1)*ldb+bc]},
		beta, blas32.General{Rows: m, Cols: n, Stride: ldc, Data: c[:(m-1)*ldc+n]})
}
