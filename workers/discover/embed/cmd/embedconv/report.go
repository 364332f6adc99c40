package main

import (
	"fmt"
	"math"

	"github.com/toolyard/toolyard/workers/discover/embed/internal/vecfile"
)

// rebuildReport says how close the n-gram vector of each held-out word
// comes to its true vector, against the baseline of a random other
// held-out word: the intrinsic measure of the n-gram table, which needs no
// queries.
func rebuildReport(src *source, held []int, z [][]float32, o options) string {
	// Tail words share a large common direction (a random pair has cosine
	// ≈ 0.27), so both sides are centered on the held-out mean first.
	mean := make([]float32, src.dims)
	for _, r := range held {
		for k, x := range src.vecs[r] {
			mean[k] += x / float32(len(held))
		}
	}
	centered := func(v []float32) []float32 {
		out := make([]float32, len(v))
		for k := range v {
			out[k] = v[k] - mean[k]
		}
		return out
	}
	var sum, base float64
	for i, r := range held {
		v := make([]float32, src.dims)
		gs := vecfile.AppendBuckets(nil, []byte(src.words[r]), o.lo, o.hi, uint32(o.buckets))
		for _, g := range gs {
			for k, x := range z[g] {
				v[k] += x
			}
		}
		for k := range v {
			v[k] /= float32(len(gs))
		}
		sum += cosine(centered(v), centered(src.vecs[r]))
		base += cosine(centered(src.vecs[held[(i+7)%len(held)]]), centered(src.vecs[r]))
	}
	n := float64(len(held))
	return fmt.Sprintf("%d words, mean cosine to the true vector %.3f (random word: %.3f)", len(held), sum/n, base/n)
}

func cosine(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	if aa == 0 || bb == 0 {
		return 0
	}
	return ab / math.Sqrt(aa*bb)
}
