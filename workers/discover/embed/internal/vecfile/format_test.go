package vecfile

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

func sample(t *testing.T) ([]byte, *File, []string) {
	t.Helper()
	f := &File{
		Header: Header{Dims: 3, SourceVocab: 1000, Buckets: 4, NgramMin: 3, NgramMax: 4, SIFA: 1e-3, ZipfQ: 2.7},
		Source: "test@1",
		Common: []float32{1, 0, 0},
		Ranks:  []uint32{0, 7},
		Scales: []float32{0.5, 0.25},
		// int8 values as bytes, including negatives.
		Vectors:  []byte{1, 2, 0xff, 4, 0x80, 6},
		BScales:  []float32{1, 2, 3, 4},
		BVectors: make([]byte, 12),
	}
	words := []string{"the", "café"}
	var buf bytes.Buffer
	if err := Write(&buf, f, words); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), f, words
}

func TestRoundTrip(t *testing.T) {
	b, want, words := sample(t)
	got, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Source != want.Source || got.Dims != 3 || got.Words != 2 || got.Buckets != 4 || got.Header.Common != 1 {
		t.Errorf("header = %+v, source %q", got.Header, got.Source)
	}
	for i, w := range words {
		if got.Word(i) != w {
			t.Errorf("word %d = %q, want %q", i, got.Word(i), w)
		}
	}
	if !slices.Equal(got.Ranks, want.Ranks) || !slices.Equal(got.Scales, want.Scales) ||
		!bytes.Equal(got.Vectors, want.Vectors) || !slices.Equal(got.Common, want.Common) ||
		!slices.Equal(got.BScales, want.BScales) {
		t.Errorf("sections differ: %+v", got)
	}
}

func TestParseRejects(t *testing.T) {
	b, _, _ := sample(t)
	flipped := bytes.Clone(b)
	flipped[len(flipped)/2] ^= 1
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "bad magic"},
		{"other file", []byte(strings.Repeat("x", 100)), "bad magic"},
		{"truncated", b[:len(b)-10], "checksum"},
		{"corrupt", flipped, "checksum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.in)
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse = %v, want ErrFormat mentioning %q", err, tc.want)
			}
		})
	}
}

func TestWriteRejectsInconsistentSections(t *testing.T) {
	_, f, words := sample(t)
	f.Scales = f.Scales[:1]
	if err := Write(&bytes.Buffer{}, f, words); err == nil {
		t.Error("Write accepted 2 words with 1 scale")
	}
}

func TestQuantize(t *testing.T) {
	v := []float32{0.5, -1, 0.25, 0}
	q := make([]byte, len(v))
	s := Quantize(q, v)
	for i, x := range v {
		if got := float32(int8(q[i])) * s; got-x > s/2 || x-got > s/2 {
			t.Errorf("component %d: %g comes back as %g (scale %g)", i, x, got, s)
		}
	}
	if s := Quantize(q, make([]float32, 4)); s != 0 {
		t.Errorf("scale of the zero vector = %g", s)
	}
}

func TestAppendBuckets(t *testing.T) {
	for _, tc := range []struct {
		word   string
		lo, hi int
		want   int
	}{
		// "<abc>": 3 trigrams, 2 four-grams; the 5-gram is the word itself.
		{"abc", 3, 5, 5},
		{"ab", 3, 3, 2},
		{"été", 3, 3, 3}, // counted in runes, not bytes
		{"", 3, 5, 0},
		// Bounded for any length: MaxNgramRunes runes, no closing marker.
		{strings.Repeat("x", 500), 3, 3, MaxNgramRunes - 1},
	} {
		got := AppendBuckets(nil, []byte(tc.word), tc.lo, tc.hi, 1<<10)
		if len(got) != tc.want {
			t.Errorf("%q: %d n-grams, want %d", tc.word, len(got), tc.want)
		}
		again := AppendBuckets(nil, []byte(tc.word), tc.lo, tc.hi, 1<<10)
		if !slices.Equal(got, again) {
			t.Errorf("%q: buckets differ between calls", tc.word)
		}
		for _, b := range got {
			if b >= 1<<10 {
				t.Errorf("%q: bucket %d out of range", tc.word, b)
			}
		}
	}
}

func TestProbDecreasesWithRank(t *testing.T) {
	prev := 1.0
	for _, r := range []uint32{0, 1, 10, 1000, 100000} {
		p := Prob(r, 400000, 2.7)
		if !(p > 0 && p < prev) {
			t.Errorf("Prob(rank %d) = %g after %g", r, p, prev)
		}
		prev = p
	}
}
