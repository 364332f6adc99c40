package discover

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// FitCalibration fits a Calibration by L2-regularised logistic regression
// (Newton's method): rows[i] holds the values of features for one
// candidate, right[i] whether it was the right tool. l2 is the penalty on
// the weights (not the bias); 1e-3 suits a few thousand rows. It is what a
// training job runs on replayed audit records to refit the shipped model.
func FitCalibration(features []string, rows [][]float64, right []bool, l2 float64) (Calibration, error) {
	return fitCalibration(features, rows, right, nil, l2)
}

// FitCalibrationWeighted is FitCalibration with a weight per row (nil: all
// 1): fitting on several collections at once, each can weigh the same
// whatever its number of rows.
func FitCalibrationWeighted(features []string, rows [][]float64, right []bool, weight []float64, l2 float64) (Calibration, error) {
	return fitCalibration(features, rows, right, weight, l2)
}

// fitCalibration is FitCalibration with a weight per row (nil: all 1).
func fitCalibration(features []string, rows [][]float64, right []bool, weight []float64, l2 float64) (Calibration, error) {
	if weight != nil && len(weight) != len(rows) {
		return Calibration{}, fmt.Errorf("fit calibration: %d rows but %d weights", len(rows), len(weight))
	}
	if len(rows) != len(right) {
		return Calibration{}, fmt.Errorf("fit calibration: %d rows but %d labels", len(rows), len(right))
	}
	if len(rows) == 0 {
		return Calibration{}, errors.New("fit calibration: no rows")
	}
	d := len(features) + 1 // weights, then the bias
	for i, r := range rows {
		if len(r) != len(features) {
			return Calibration{}, fmt.Errorf("fit calibration: row %d has %d values for %d features", i, len(r), len(features))
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
		step, err := solve(hess, grad)
		if err != nil {
			return Calibration{}, fmt.Errorf("fit calibration: iteration %d: %w", iter, err)
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
	c := Calibration{Features: slices.Clone(features), Weights: w[:d-1], Bias: w[d-1]}
	if _, err := c.compile(); err != nil {
		return Calibration{}, fmt.Errorf("fit calibration: %w", err)
	}
	return c, nil
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
