package vecfile

import (
	"math"
	"sort"
)

// PseudoSentence is the sentence length the shipped statistics assume:
// about what a tool description or a request runs to, once SIF has all but
// silenced the function words.
const PseudoSentence = 10

// Moment is the second moment E[ssᵀ] of SIF sentence vectors s for
// pseudo-sentences of n words drawn independently from the unigram
// distribution: n·E[xxᵀ] + n(n−1)·μμᵀ with x = w·v the weighted word vector
// and μ = E[x]. Each word's x first loses its projection on every vector in
// remove, as sentence vectors do. The closed form needs no sampling, so
// the result depends on the vectors alone, never on a registry.
//
// row(i, dst) writes word i's weighted vector into dst; p(i) is its
// probability (normalized here).
func Moment(d, words int, row func(i int, dst []float64), p func(i int) float64, n int, remove [][]float32) []float64 {
	var total float64
	for i := range words {
		total += p(i)
	}
	m := make([]float64, d*d)
	mu := make([]float64, d)
	x := make([]float64, d)
	for i := range words {
		row(i, x)
		for _, u := range remove {
			var s float64
			for k := range x {
				s += x[k] * float64(u[k])
			}
			for k := range x {
				x[k] -= s * float64(u[k])
			}
		}
		pi := p(i) / total
		for r := range d {
			mu[r] += pi * x[r]
			pr := pi * x[r]
			row := m[r*d : r*d+d]
			for c := r; c < d; c++ {
				row[c] += pr * x[c]
			}
		}
	}
	nn := float64(n)
	for r := range d {
		for c := r; c < d; c++ {
			v := nn*m[r*d+c] + nn*(nn-1)*mu[r]*mu[c]
			m[r*d+c], m[c*d+r] = v, v
		}
	}
	return m
}

// Eigen returns the eigenvalues of the symmetric d×d matrix m, largest
// first, and the matching unit eigenvectors, by cyclic Jacobi rotations:
// exact to rounding and fast at these sizes, where power iteration
// struggles with close eigenvalues. m is not modified.
func Eigen(m []float64, d int) ([]float64, [][]float64) {
	a := append([]float64(nil), m...)
	v := make([]float64, d*d)
	for i := range d {
		v[i*d+i] = 1
	}
	for sweep := 0; sweep < 100; sweep++ {
		var off float64
		for r := range d {
			for c := r + 1; c < d; c++ {
				off += a[r*d+c] * a[r*d+c]
			}
		}
		if off < 1e-30 {
			break
		}
		for p := range d {
			for q := p + 1; q < d; q++ {
				apq := a[p*d+q]
				if apq == 0 {
					continue
				}
				theta := (a[q*d+q] - a[p*d+p]) / (2 * apq)
				t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := range d {
					akp, akq := a[k*d+p], a[k*d+q]
					a[k*d+p], a[k*d+q] = c*akp-s*akq, s*akp+c*akq
				}
				for k := range d {
					apk, aqk := a[p*d+k], a[q*d+k]
					a[p*d+k], a[q*d+k] = c*apk-s*aqk, s*apk+c*aqk
				}
				for k := range d {
					vkp, vkq := v[k*d+p], v[k*d+q]
					v[k*d+p], v[k*d+q] = c*vkp-s*vkq, s*vkp+c*vkq
				}
			}
		}
	}
	idx := make([]int, d)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(x, y int) bool { return a[idx[x]*d+idx[x]] > a[idx[y]*d+idx[y]] })
	vals := make([]float64, d)
	vecs := make([][]float64, d)
	for k, i := range idx {
		vals[k] = a[i*d+i]
		vecs[k] = make([]float64, d)
		for r := range d {
			vecs[k][r] = v[r*d+i]
		}
	}
	return vals, vecs
}

// Whitening returns the symmetric d×d matrix that whitens vectors of
// second moment m: Σ λ^−½ e eᵀ over the eigenpairs, leaving out the null
// directions (the common components already removed, whose λ ≈ 0 would
// blow up). Every remaining direction then carries equal variance, so the
// few directions where most words agree no longer dominate cosines.
func Whitening(m []float64, d int) []float32 {
	vals, vecs := Eigen(m, d)
	w := make([]float64, d*d)
	for k, lambda := range vals {
		if !(lambda > 1e-9*vals[0]) {
			continue
		}
		s := 1 / math.Sqrt(lambda)
		e := vecs[k]
		for r := range d {
			for c := range d {
				w[r*d+c] += s * e[r] * e[c]
			}
		}
	}
	out := make([]float32, d*d)
	for i, x := range w {
		out[i] = float32(x)
	}
	return out
}
