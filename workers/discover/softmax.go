package discover

import "math"

// SoftmaxInPlace turns scores into probabilities, the largest subtracted
// first so that no exponential overflows. The usage classifiers score with
// it, and training fits with it, so a fitted model scores the same in both.
func SoftmaxInPlace[F float32 | float64](z []F) {
	top := math.Inf(-1)
	for _, v := range z {
		top = math.Max(top, float64(v))
	}
	var sum float64
	for k, v := range z {
		e := math.Exp(float64(v) - top)
		z[k] = F(e)
		sum += e
	}
	for k, v := range z {
		z[k] = F(float64(v) / sum)
	}
}
