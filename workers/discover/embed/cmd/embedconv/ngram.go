package main

import (
	"math/rand/v2"

	"github.com/toolyard/toolyard/workers/discover/embed/internal/vecfile"
)

// ngramFit holds the settings of fitNgrams.
type ngramFit struct {
	buckets uint32
	lo, hi  int
	epochs  int
	alpha   float64
}

// fitNgrams learns a vector per hashed character n-gram so that the mean of
// a word's n-gram vectors approximates the word's own vector: fastText's
// subword model, fitted to the finished word vectors instead of to a corpus.
// It is trained on every tokenizable word of the source, so the words the
// file drops still shape the n-grams that stand in for them.
//
// Plain SGD on ½‖v − mean(z_g)‖²: moving every z_g by α·err moves the mean by
// α·err whatever the number of n-grams, so α is a fraction of the error
// corrected per visit, decayed linearly to zero.
func fitNgrams(src *source, train []int, cfg ngramFit) [][]float32 {
	d := src.dims
	z := make([][]float32, cfg.buckets)
	for i := range z {
		z[i] = make([]float32, d)
	}
	grams := make([][]uint32, len(train))
	for i, r := range train {
		grams[i] = vecfile.AppendBuckets(nil, []byte(src.words[r]), cfg.lo, cfg.hi, cfg.buckets)
	}
	order := make([]int, len(train))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(1, 2)) // fixed: the same input gives the same file
	pred := make([]float32, d)
	alpha0 := cfg.alpha
	steps, total := 0, cfg.epochs*len(train)
	for range cfg.epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			alpha := float32(alpha0 * (1 - float64(steps)/float64(total)))
			steps++
			gs := grams[i]
			if len(gs) == 0 {
				continue
			}
			clear(pred)
			for _, g := range gs {
				for k, x := range z[g] {
					pred[k] += x
				}
			}
			inv := 1 / float32(len(gs))
			v := src.vecs[train[i]]
			for k := range pred {
				pred[k] = alpha * (v[k] - pred[k]*inv)
			}
			for _, g := range gs {
				zg := z[g]
				for k, e := range pred {
					zg[k] += e
				}
			}
		}
	}
	return z
}
