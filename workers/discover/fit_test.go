package discover

import (
	"math"
	"testing"
)

// FitLogisticPrior leans to its prior where the rows say little and
// follows the rows where they say much.
func TestFitLogisticPrior(t *testing.T) {
	prior := Prior{Weights: []float64{1}, Bias: -1, Strength: 20}
	row := func(x float64) []float64 { return []float64{x} }
	// One kind of answer only: plain L2 runs the bias off; the prior
	// holds it near its own.
	var one [][]float64
	var right []bool
	for i := range 10 {
		one = append(one, row(float64(i)/10))
		right = append(right, true)
	}
	_, plainBias, err := FitLogistic(one, right, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	w, b, err := FitLogisticPrior(one, right, 1e-3, prior)
	if err != nil {
		t.Fatal(err)
	}
	if plainBias < 5 {
		t.Errorf("plain fit's bias %.2f: the case no longer shows the run-off", plainBias)
	}
	if math.Abs(b-prior.Bias) > 1 || math.Abs(w[0]-prior.Weights[0]) > 1 {
		t.Errorf("on ten right answers the prior moved to %.2f·x %+.2f from %.2f·x %+.2f", w[0], b, prior.Weights[0], prior.Bias)
	}
	// Forty thousand rows of P(right) rising with x: the prior hardly counts.
	var many [][]float64
	right = right[:0]
	for i := range 40000 {
		x := float64(i%100) / 100
		many = append(many, row(x))
		right = append(right, (i*7919)%100 < int(100*x))
	}
	pw, pb, _ := FitLogistic(many, right, 1e-3)
	w, b, err = FitLogisticPrior(many, right, 1e-3, prior)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(w[0]-pw[0]) > 0.1*math.Abs(pw[0]) || math.Abs(b-pb) > 0.1*math.Abs(pb)+0.05 {
		t.Errorf("on 40000 rows the prior still counts: %.3f·x %+.3f against %.3f·x %+.3f", w[0], b, pw[0], pb)
	}
	if _, _, err := FitLogisticPrior(many, right, 1e-3, Prior{Weights: []float64{1, 2}}); err == nil {
		t.Error("a prior of two weights for one column was taken")
	}
}
