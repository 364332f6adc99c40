package calibrate

import (
	"errors"
	"fmt"
	"math"

	"github.com/toolyard/toolyard/workers/discover"
)

// Spec is what a fit uses: the signals of each factor of the model
// (discover.Calibration: P(needs a tool) · P(right | needs a tool)) and the
// L2 penalty.
type Spec struct {
	Version string
	// Right are the signals of P(the top tool is right | some tool is).
	Right []string
	// Need are the signals of P(some tool is right); none: no need factor.
	Need []string
	L2   float64
	// Pooling is how much a collection's size counts: each collection
	// weighs in proportion to its number of rows to this power, 0 (the
	// default) for every collection the same, 1 for every row the same.
	Pooling float64 `json:"pooling,omitempty"`
}

// Fit fits both factors on rows from any number of collections, each
// collection weighing the same in each factor whatever its size: a
// collection of 6,000 requests must not make the model fit its registry
// alone. A collection with no request needing a tool adds nothing to the
// right factor; one where every request needs one only positives to the
// need factor.
func Fit(rows []Row, s Spec) (discover.Calibration, error) {
	if len(rows) == 0 {
		return discover.Calibration{}, errors.New("calibrate: no rows to fit")
	}
	var rx [][]float64
	var ry []bool
	var rw []float64
	var nx [][]float64
	var ny []bool
	var nw []float64
	needW, rightW := balance(rows, s.Pooling, func(Row) bool { return true }), balance(rows, s.Pooling, func(r Row) bool { return r.Need })
	for i, r := range rows {
		nx = append(nx, values(r, s.Need))
		ny = append(ny, r.Need)
		nw = append(nw, needW[i])
		if r.Need {
			rx = append(rx, values(r, s.Right))
			ry = append(ry, r.Right)
			rw = append(rw, rightW[i])
		}
	}
	if len(rx) == 0 {
		return discover.Calibration{}, errors.New("calibrate: no row needs a tool: nothing to fit P(right) on")
	}
	c, err := discover.FitCalibration(s.Right, rx, ry, rw, s.L2)
	if err != nil {
		return discover.Calibration{}, fmt.Errorf("calibrate: right factor: %w", err)
	}
	c.Version = s.Version
	if len(s.Need) > 0 && hasBoth(ny) {
		n, err := discover.FitCalibration(s.Need, nx, ny, nw, s.L2)
		if err != nil {
			return discover.Calibration{}, fmt.Errorf("calibrate: need factor: %w", err)
		}
		c.Need = &discover.NeedModel{Features: n.Features, Weights: n.Weights, Bias: n.Bias}
	}
	return c, nil
}

// balance gives every row that keep admits a weight such that each
// collection's admitted rows sum to a total in proportion to their number
// to the power pooling, and all of them to the number of admitted rows (so
// the L2 penalty keeps its scale).
func balance(rows []Row, pooling float64, keep func(Row) bool) []float64 {
	count := map[string]int{}
	total := 0
	for _, r := range rows {
		if keep(r) {
			count[r.Set]++
			total++
		}
	}
	share := map[string]float64{}
	var sum float64
	for c, n := range count {
		share[c] = math.Pow(float64(n), pooling)
		sum += share[c]
	}
	w := make([]float64, len(rows))
	for i, r := range rows {
		if keep(r) {
			w[i] = float64(total) * share[r.Set] / sum / float64(count[r.Set])
		}
	}
	return w
}

func values(r Row, features []string) []float64 {
	x := make([]float64, len(features))
	for i, f := range features {
		x[i] = discover.TermValue(f, r.X)
		if math.IsNaN(x[i]) {
			x[i] = 0
		}
	}
	return x
}

func hasBoth(ys []bool) bool {
	var t, f bool
	for _, y := range ys {
		t, f = t || y, f || !y
	}
	return t && f
}
