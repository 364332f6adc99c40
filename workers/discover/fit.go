package discover

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// FitCalibration fits a Calibration by L2-regularised logistic regression
// (Newton's method): rows[i] holds the values of features for one
// candidate, right[i] whether it was the right tool, weight[i] how much the
// row counts (nil: all 1; fitting several collections at once, each can
// weigh the same whatever its size). l2 is the penalty on the weights (not
// the bias); 1e-3 suits a few thousand rows. It is what a training job
// runs to refit the shipped model.
func FitCalibration(features []string, rows [][]float64, right []bool, weight []float64, l2 float64) (Calibration, error) {
	w, bias, err := fitLogistic(len(features), rows, right, weight, l2, nil)
	if err != nil {
		return Calibration{}, fmt.Errorf("fit calibration: %w", err)
	}
	c := Calibration{Features: slices.Clone(features), Weights: w, Bias: bias}
	if _, err := c.compile(); err != nil {
		return Calibration{}, fmt.Errorf("fit calibration: %w", err)
	}
	return c, nil
}

// FitLogistic is FitCalibration's regression on columns that need not be
// signals (derived features a fitting experiment tries, training/fit): the
// weights of rows' columns, in order, and the bias.
func FitLogistic(rows [][]float64, y []bool, l2 float64) (weights []float64, bias float64, err error) {
	if len(rows) == 0 {
		return nil, 0, errors.New("fit logistic: no rows")
	}
	return fitLogistic(len(rows[0]), rows, y, nil, l2, nil)
}

// Prior is a model a regression leans to where its rows say little: the
// weights and bias it would otherwise keep, a Gaussian prior centred on
// them that adds Strength to the curvature of each whatever the number of
// rows (a row adds p(1-p)·x², at most a quarter of its value's square).
// Plain L2 pulls toward 0 at a strength that grows with the rows: on rows
// of one class it lets the bias run off to certainty.
type Prior struct {
	Weights  []float64
	Bias     float64
	Strength float64
}

// FitLogisticPrior is FitLogistic leaning to prior: with many rows the
// rows decide, with few the prior does.
func FitLogisticPrior(rows [][]float64, y []bool, l2 float64, prior Prior) (weights []float64, bias float64, err error) {
	if len(rows) == 0 {
		return nil, 0, errors.New("fit logistic: no rows")
	}
	if len(prior.Weights) != len(rows[0]) {
		return nil, 0, fmt.Errorf("fit logistic: a prior of %d weights for %d columns", len(prior.Weights), len(rows[0]))
	}
	return fitLogistic(len(rows[0]), rows, y, nil, l2, &prior)
}

// fitLogistic is L2-regularised logistic regression by Newton's method
// over cols columns, leaning to prior when it is set.
func fitLogistic(cols int, rows [][]float64, right []bool, weight []float64, l2 float64, prior *Prior) ([]float64, float64, error) {
	if weight != nil && len(weight) != len(rows) {
		return nil, 0, fmt.Errorf("%d rows but %d weights", len(rows), len(weight))
	}
	if len(rows) != len(right) {
		return nil, 0, fmt.Errorf("%d rows but %d labels", len(rows), len(right))
	}
	if len(rows) == 0 {
		return nil, 0, errors.New("no rows")
	}
	d := cols + 1 // weights, then the bias
	for i, r := range rows {
		if len(r) != cols {
			return nil, 0, fmt.Errorf("row %d has %d values for %d features", i, len(r), cols)
		}
	}
	w := make([]float64, d)
	x := make([]float64, d)
	for iter := 0; iter < 50; iter++ {
		grad := make([]float64, d)
		hess := make([][]float64, d)
		for i := range hess {
			hess[i] = make([]float64, d)
		}
		for i, r := range rows {
			copy(x, r)
			x[d-1] = 1
			var z float64
			for j := range x {
				z += w[j] * x[j]
			}
			p := sigmoid(z)
			y := b2f(right[i])
			wi := 1.0
			if weight != nil {
				wi = weight[i]
			}
			for j := range x {
				grad[j] += wi * (p - y) * x[j]
				for l := range x {
					hess[j][l] += wi * p * (1 - p) * x[j] * x[l]
				}
			}
		}
		n := float64(len(rows))
		for j := range d - 1 {
			grad[j] += l2 * n * w[j]
			hess[j][j] += l2 * n
		}
		hess[d-1][d-1] += 1e-9 * n
		if prior != nil {
			for j := range d {
				want := prior.Bias
				if j < d-1 {
					want = prior.Weights[j]
				}
				grad[j] += prior.Strength * (w[j] - want)
				hess[j][j] += prior.Strength
			}
		}
		step, err := solve(hess, grad)
		if err != nil {
			return nil, 0, fmt.Errorf("iteration %d: %w", iter, err)
		}
		var moved float64
		for j := range w {
			w[j] -= step[j]
			moved = math.Max(moved, math.Abs(step[j]))
		}
		if moved < 1e-8 {
			break
		}
	}
	return w[:d-1], w[d-1], nil
}

// solve returns x with a·x = b by Gaussian elimination with partial pivoting.
func solve(a [][]float64, b []float64) ([]float64, error) {
	n := len(b)
	m := make([][]float64, n)
	for i := range a {
		m[i] = append(slices.Clone(a[i]), b[i])
	}
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		if math.Abs(m[p][c]) < 1e-12 {
			return nil, fmt.Errorf("singular system at column %d", c)
		}
		m[c], m[p] = m[p], m[c]
		for r := c + 1; r < n; r++ {
			f := m[r][c] / m[c][c]
			for k := c; k <= n; k++ {
				m[r][k] -= f * m[c][k]
			}
		}
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := m[i][n]
		for k := i + 1; k < n; k++ {
			s -= m[i][k] * x[k]
		}
		x[i] = s / m[i][i]
	}
	return x, nil
}
