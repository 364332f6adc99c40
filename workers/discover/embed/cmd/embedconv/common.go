package main

import (
	"github.com/toolyard/toolyard/workers/discover/embed/internal/vecfile"
)

// sifStats computes what the file ships for SIF: the top k common
// components of pseudo-sentence vectors (SIF's truncated SVD, done on the
// closed-form second moment, see vecfile.Moment), and the whitening matrix
// of what remains once the first whitenCC of them are removed.
func sifStats(vecs [][]float32, ranks []uint32, sourceVocab uint32, a float64, q float32, k, whitenCC int) (common [][]float32, white []float32) {
	d := len(vecs[0])
	row := func(i int, dst []float64) {
		w := a / (a + vecfile.Prob(ranks[i], sourceVocab, q))
		for j, x := range vecs[i] {
			dst[j] = w * float64(x)
		}
	}
	p := func(i int) float64 { return vecfile.Prob(ranks[i], sourceVocab, q) }
	_, eig := vecfile.Eigen(vecfile.Moment(d, len(vecs), row, p, vecfile.PseudoSentence, nil), d)
	for _, e := range eig[:k] {
		u := make([]float32, d)
		for j, x := range e {
			u[j] = float32(x)
		}
		common = append(common, u)
	}
	white = vecfile.Whitening(vecfile.Moment(d, len(vecs), row, p, vecfile.PseudoSentence, common[:whitenCC]), d)
	return common, white
}
