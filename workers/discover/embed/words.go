package embed

import "math"

// WordVector returns the unit-length word vector of a single word (matched
// lower-cased against the vocabulary), or nil when the vocabulary lacks it.
// It is the source vector, before SIF weighting, common-component removal
// and whitening, so cosines between word vectors are the usual word
// similarities (resume ~ cv, forecast ~ weather). Sentence vectors from
// EmbedQuery live in a different (whitened) space and must not be compared
// with it. The result is a fresh slice the caller may keep.
func (l *Local) WordVector(word string) []float32 {
	if word == "" {
		return nil
	}
	r := l.row(appendLower(nil, word))
	if r < 0 {
		return nil
	}
	d := l.m.dims
	out := make([]float32, d)
	var norm float64
	for k, b := range l.m.f.Vectors[r*d : (r+1)*d] {
		x := float32(int8(b))
		out[k] = x
		norm += float64(x) * float64(x)
	}
	if norm == 0 {
		return nil
	}
	inv := float32(1 / math.Sqrt(norm))
	for k := range out {
		out[k] *= inv
	}
	return out
}

// WordRank returns the frequency rank (0 = most frequent) of a word in the
// source corpus, and false when the vocabulary lacks it.
func (l *Local) WordRank(word string) (int, bool) {
	r := l.row(appendLower(nil, word))
	if r < 0 {
		return 0, false
	}
	return int(l.m.f.Ranks[r]), true
}

// WordWeight returns a word's SIF weight a/(a+p(w)), in (0,1]: near 1 for
// rare words, small for the most frequent ones (the, help, want). A word
// the vocabulary lacks is rarer than any it has and weighs 1.
func (l *Local) WordWeight(word string) float64 {
	r := l.row(appendLower(nil, word))
	if r < 0 {
		return 1
	}
	return l.sif(l.m.f.Ranks[r])
}
