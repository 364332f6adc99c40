package discover

import (
	"context"
	"errors"
	"hash/fnv"
	"log/slog"
	"math"
	"strings"
	"sync/atomic"
	"unicode"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// fakeEmbedder is a deterministic bag-of-words embedder: each word (after
// synonyms) adds a hashed one-hot direction, so texts sharing words are
// close and a synonym makes a match the keyword side cannot see.
type fakeEmbedder struct {
	synonyms map[string]string
	// failQueries makes EmbedQuery fail once set, as a remote embedder
	// whose server went away would.
	failQueries atomic.Bool
	failAll     bool
	queries     atomic.Int64
}

const fakeDim = 1024

var errFakeDown = errors.New("fake embedder down")

func (f *fakeEmbedder) ID() string { return "fake:v1" }

func (f *fakeEmbedder) EmbedQuery(_ context.Context, text string) ([]float32, error) {
	f.queries.Add(1)
	if f.failAll || f.failQueries.Load() {
		return nil, errFakeDown
	}
	return f.vec(text), nil
}

func (f *fakeEmbedder) EmbedDocuments(_ context.Context, texts []string) ([][]float32, error) {
	if f.failAll {
		return nil, errFakeDown
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = f.vec(t)
	}
	return out, nil
}

func (f *fakeEmbedder) vec(text string) []float32 {
	v := make([]float32, fakeDim)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if s, ok := f.synonyms[w]; ok {
			w = s
		}
		h := fnv.New32a()
		h.Write([]byte(w))
		v[h.Sum32()%fakeDim]++
	}
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	if n > 0 {
		for i := range v {
			v[i] /= float32(math.Sqrt(n))
		}
	}
	return v
}

func newLogger() (*slog.Logger, *pipelinetest.Buffer) {
	b := &pipelinetest.Buffer{}
	return slog.New(slog.NewTextHandler(b, nil)), b
}
