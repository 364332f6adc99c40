package embed

import (
	"errors"
	"fmt"
	"sync"
)

const vectorsPath = "data/vectors.bin"

// ErrUnavailable says the local embedder has no word vectors. Discovery
// treats it as "keyword search only", never as a fatal error.
var ErrUnavailable = errors.New("local embedder unavailable")

// embedded parses the vectors compiled into the binary, once, on first use.
var embedded = sync.OnceValues(func() (*model, error) {
	b, err := dataFS.ReadFile(vectorsPath)
	if err != nil {
		return nil, fmt.Errorf("%w: this build has no %s (run `make embeddings`, then rebuild): %w", ErrUnavailable, vectorsPath, err)
	}
	m, err := newModel(b)
	if err != nil {
		return nil, fmt.Errorf("%w: embedded %s: %w", ErrUnavailable, vectorsPath, err)
	}
	return m, nil
})
