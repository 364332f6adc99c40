package vecfile

import (
	"math"
	"unicode/utf8"
)

// MaxNgramRunes bounds the runes of a word that yield n-grams: identifiers
// can be arbitrarily long, and a fixed bound keeps the work per word bounded
// and allocation-free.
const MaxNgramRunes = 48

const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

// AppendBuckets appends the bucket of each character n-gram of word, of
// lo..hi runes, taken from word wrapped in the boundary markers '<' and '>'
// as fastText does, so prefixes and suffixes hash apart from inner n-grams.
// buckets must be a power of two.
func AppendBuckets(dst []uint32, word []byte, lo, hi int, buckets uint32) []uint32 {
	if buckets == 0 || len(word) == 0 {
		return dst
	}
	// starts holds the byte offset of each rune in "<"+word+">", and one
	// past the last; closeAt is where '>' sits, or -1 for a truncated word.
	var starts [MaxNgramRunes + 3]int
	n, i := 1, 0
	for i < len(word) && n <= MaxNgramRunes {
		starts[n] = 1 + i
		n++
		_, size := utf8.DecodeRune(word[i:])
		i += size
	}
	closeAt := -1
	starts[n] = 1 + i
	if i == len(word) {
		closeAt = 1 + i
		n++
		starts[n] = 2 + i
	}
	at := func(k int) byte {
		switch k {
		case 0:
			return '<'
		case closeAt:
			return '>'
		}
		return word[k-1]
	}
	mask := buckets - 1
	for size := lo; size <= hi; size++ {
		for i := 0; i+size <= n; i++ {
			if size == n { // the whole marked word is the word, not an n-gram of it
				continue
			}
			h := uint32(fnvOffset)
			for k := starts[i]; k < starts[i+size]; k++ {
				h ^= uint32(at(k))
				h *= fnvPrime
			}
			dst = append(dst, h&mask)
		}
	}
	return dst
}

// Prob is the Zipf–Mandelbrot estimate of a word's unigram probability from
// its frequency rank, p ∝ 1/(rank+1+q), normalized over a vocabulary of v
// words. The source ships ranks, not counts; Zipf's law is what turns a rank
// into the p(w) that SIF weighting needs.
func Prob(rank uint32, v uint32, q float32) float64 {
	qq := float64(q)
	// ∑_{r=1..v} 1/(r+q) ≈ ln((v+q+½)/(q+½)), close enough for a weight.
	h := math.Log((float64(v) + qq + 0.5) / (qq + 0.5))
	return 1 / ((float64(rank) + 1 + qq) * h)
}
