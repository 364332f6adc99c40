package embed

import (
	"bytes"
	"context"
	"testing"

	"github.com/toolyard/toolyard/workers/discover/embed/internal/vecfile"
)

// The synthetic vocabulary has four topic axes — weather, maps, music,
// and a "function word" axis that the file's common component removes —
// so tests can say which texts must land near which without real vectors.
var testWords = []struct {
	word string
	rank uint32
	vec  [4]float32
}{
	{"the", 0, [4]float32{0, 0, 0, 4}},
	{"get", 50, [4]float32{0.2, 0.2, 0.2, 2}},
	{"weather", 1500, [4]float32{3, 0, 0, 1}},
	{"forecast", 2500, [4]float32{2.5, 0.3, 0, 1}},
	{"rain", 3000, [4]float32{2.8, 0, 0.2, 1}},
	{"map", 2000, [4]float32{0, 3, 0, 1}},
	{"maps", 2100, [4]float32{0, 2.9, 0, 1}},
	{"google", 4000, [4]float32{0.3, 2, 0.3, 1}},
	{"scraper", 70000, [4]float32{0, 1.5, 0.5, 0.5}},
	{"air", 900, [4]float32{2, 0.5, 0, 1}},
	{"quality", 1200, [4]float32{0.5, 0.5, 0.5, 1}},
	{"team", 600, [4]float32{0, 0, 2, 1}},
	{"stats", 9000, [4]float32{0.5, 0.5, 2, 1}},
	{"mp3", 16000, [4]float32{0, 0, 3, 0.5}},
	{"song", 1800, [4]float32{0, 0, 3, 1}},
	{"youtube", 5000, [4]float32{0, 0, 2.5, 1}},
	{"you", 60, [4]float32{0.1, 0.1, 0.1, 3}},
	{"tube", 8000, [4]float32{0, 1, 0, 1}},
	{"limit", 3500, [4]float32{0.3, 0.3, 0.3, 1}},
	{"ipv", 90000, [4]float32{0, 1, 1, 0}},
}

// testVectors returns a vector file of testWords, with n-gram buckets
// filled deterministically so unknown words get a nonzero vector.
func testVectors(t testing.TB) []byte {
	t.Helper()
	const dims = 4
	f := &vecfile.File{
		Header: vecfile.Header{Dims: dims, SourceVocab: 100000, Buckets: 64, NgramMin: 3, NgramMax: 5, SIFA: 3e-4, ZipfQ: 2.7},
		Source: "test-vectors@0",
		// The function-word axis, and a second component for cc=2.
		Common: []float32{0, 0, 0, 1, 1, 0, 0, 0},
	}
	var words []string
	for _, w := range testWords {
		words = append(words, w.word)
		f.Ranks = append(f.Ranks, w.rank)
		q := make([]byte, dims)
		f.Scales = append(f.Scales, vecfile.Quantize(q, w.vec[:]))
		f.Vectors = append(f.Vectors, q...)
	}
	for b := range f.Header.Buckets {
		v := []float32{float32(b%3) - 1, float32(b%5) - 2, float32(b%7) - 3, 1}
		q := make([]byte, dims)
		f.BScales = append(f.BScales, vecfile.Quantize(q, v))
		f.BVectors = append(f.BVectors, q...)
	}
	var buf bytes.Buffer
	if err := vecfile.Write(&buf, f, words); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func testLocal(t testing.TB, opts ...LocalOption) *Local {
	t.Helper()
	l, err := NewLocal(append([]LocalOption{WithVectors(testVectors(t))}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func embedQuery(t testing.TB, e Embedder, text string) []float32 {
	t.Helper()
	v, err := e.EmbedQuery(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func norm2(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return s
}
