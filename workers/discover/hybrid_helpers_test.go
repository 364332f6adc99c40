package discover

import (
	"bytes"
	"context"
	"errors"
	"hash/fnv"
	"log/slog"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
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

// logBuffer collects log records for assertions.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newLogger() (*slog.Logger, *logBuffer) {
	b := &logBuffer{}
	return slog.New(slog.NewTextHandler(b, nil)), b
}
