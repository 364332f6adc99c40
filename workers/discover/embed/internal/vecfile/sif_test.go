package vecfile

import (
	"math"
	"testing"
)

func TestEigen(t *testing.T) {
	// A symmetric matrix with known eigenvalues 4, 2 and 1.
	m := []float64{
		3, 1, 0,
		1, 3, 0,
		0, 0, 1,
	}
	vals, vecs := Eigen(m, 3)
	for i, want := range []float64{4, 2, 1} {
		if math.Abs(vals[i]-want) > 1e-9 {
			t.Errorf("eigenvalue %d = %g, want %g", i, vals[i], want)
		}
		// m·e = λ·e
		for r := range 3 {
			var s float64
			for c := range 3 {
				s += m[r*3+c] * vecs[i][c]
			}
			if math.Abs(s-vals[i]*vecs[i][r]) > 1e-9 {
				t.Errorf("eigenvector %d is not one: row %d gives %g, want %g", i, r, s, vals[i]*vecs[i][r])
			}
		}
	}
}

func TestWhitening(t *testing.T) {
	// Second moment diag(4, 1, 0): the null third axis stays null, the
	// others are scaled to unit variance.
	w := Whitening([]float64{4, 0, 0, 0, 1, 0, 0, 0, 0}, 3)
	want := []float32{0.5, 0, 0, 0, 1, 0, 0, 0, 0}
	for i := range want {
		if math.Abs(float64(w[i]-want[i])) > 1e-6 {
			t.Fatalf("whitening = %v, want %v", w, want)
		}
	}
}

func TestMoment(t *testing.T) {
	// Two words, equally likely: E[xxᵀ] = diag(½, ½), μ = (½, ½).
	vecs := [][]float64{{1, 0}, {0, 1}}
	row := func(i int, dst []float64) { copy(dst, vecs[i]) }
	p := func(int) float64 { return 1 }
	m := Moment(2, 2, row, p, 2, nil)
	// n·E[xxᵀ] + n(n−1)·μμᵀ with n = 2.
	want := []float64{1.5, 0.5, 0.5, 1.5}
	for i := range want {
		if math.Abs(m[i]-want[i]) > 1e-12 {
			t.Fatalf("moment = %v, want %v", m, want)
		}
	}
	// Removing the first axis leaves only the second word's.
	m = Moment(2, 2, row, p, 1, [][]float32{{1, 0}})
	if m[0] != 0 || math.Abs(m[3]-0.5) > 1e-12 {
		t.Errorf("moment after removal = %v", m)
	}
}
