package embed

import (
	"math"
	"unicode/utf8"

	"github.com/toolyard/toolyard/workers/discover/embed/internal/vecfile"
)

// Sub-word splitting finds the likeliest way to write an unknown word as
// known words (airqualityforecast → air quality forecast; tool names and
// ids glue words together). Only reasonably common words may be pieces:
// the tail of a 400k-word vocabulary is full of short names and
// abbreviations that can tile almost any string.
const (
	maxSplitBytes = 32    // longer words go straight to n-grams
	maxPieceBytes = 20    // no common word is longer
	minPieceBytes = 3     // shorter pieces only when very common:
	shortPieceMax = 10000 // the rank a 2-letter piece must be under
	pieceMaxRank  = 50000 // the rank every piece must be under
)

// minUnknownBytes is the shortest unknown word worth n-grams: one or two
// letters are initials or noise, and their n-grams say nothing.
const minUnknownBytes = 3

// addUnknown adds a word the vocabulary lacks: as its sub-words if it
// splits into known ones, else from its character n-grams.
func (l *Local) addUnknown(acc []float32, w []byte, sc *scratch) {
	if len(w) < minUnknownBytes {
		return
	}
	if l.cfg.subwords && l.addSubwords(acc, w) {
		return
	}
	l.addNgrams(acc, w, sc)
}

// addSubwords splits w into known words by dynamic programming over the
// unigram cost −log p(piece), the split a unigram language model finds
// likeliest, and adds them; it reports whether w split.
func (l *Local) addSubwords(acc []float32, w []byte) bool {
	n := len(w)
	if n > maxSplitBytes || n < 2*minPieceBytes-1 {
		return false
	}
	for _, c := range w {
		if c >= utf8.RuneSelf {
			return false // byte offsets would cut runes
		}
	}
	var cost [maxSplitBytes + 1]float64
	var from, row [maxSplitBytes + 1]int32
	f := l.m.f
	for i := 1; i <= n; i++ {
		cost[i] = math.Inf(1)
		for j := max(0, i-maxPieceBytes); j <= i-2; j++ {
			if math.IsInf(cost[j], 1) || (j == 0 && i == n) {
				continue
			}
			r := l.row(w[j:i])
			if r < 0 {
				continue
			}
			rank := f.Ranks[r]
			if rank >= pieceMaxRank || (i-j < minPieceBytes && rank >= shortPieceMax) {
				continue
			}
			c := cost[j] - math.Log(vecfile.Prob(rank, f.SourceVocab, f.ZipfQ))
			if c < cost[i] {
				cost[i], from[i], row[i] = c, int32(j), int32(r)
			}
		}
	}
	if math.IsInf(cost[n], 1) {
		return false
	}
	for i := n; i > 0; i = int(from[i]) {
		l.addRow(acc, int(row[i]))
	}
	return true
}

// addNgrams adds the mean of w's n-gram vectors, which the converter fitted
// to approximate whole-word vectors (fastText's subword model).
func (l *Local) addNgrams(acc []float32, w []byte, sc *scratch) {
	f := l.m.f
	if f.Buckets == 0 || l.oovW == 0 {
		return
	}
	sc.buckets = vecfile.AppendBuckets(sc.buckets[:0], w, int(f.NgramMin), int(f.NgramMax), f.Buckets)
	if len(sc.buckets) == 0 {
		return
	}
	d := len(acc)
	per := l.oovW / float32(len(sc.buckets))
	for _, b := range sc.buckets {
		s := per * f.BScales[b]
		vec := f.BVectors[int(b)*d : (int(b)+1)*d]
		for k, q := range vec {
			acc[k] += s * float32(int8(q))
		}
	}
}
