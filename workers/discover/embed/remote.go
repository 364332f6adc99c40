package embed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"strings"

	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"
)

// Default remote models.
const (
	DefaultOllamaModel = "nomic-embed-text"
	DefaultOpenAIModel = "text-embedding-3-small"
)

// remoteBatch is how many texts go in one request; OpenAI accepts up to
// 2048, and smaller batches keep one failure from costing much.
const remoteBatch = 256

// remote wraps langchaingo's embedder for a server: it checks the count and
// length of what comes back, normalizes it, and never sends empty text
// (which OpenAI rejects and which means nothing anyway).
type remote struct {
	id    string
	inner embeddings.Embedder
	dims  int
}

func newRemote(ctx context.Context, provider string, cfg Config) (*remote, error) {
	if cfg.Dimensions < 0 {
		return nil, fmt.Errorf("embedder: dimensions must be ≥ 0, got %d", cfg.Dimensions)
	}
	if cfg.URL != "" {
		// langchaingo's ollama option exits the process on a bad URL.
		u, err := url.Parse(cfg.URL)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("embedder: %s URL %q must be absolute, like http://host:port", provider, cfg.URL)
		}
	}
	var client embeddings.EmbedderClient
	model := cfg.Model
	switch provider {
	case ProviderOllama:
		if model == "" {
			model = DefaultOllamaModel
		}
		opts := []ollama.Option{ollama.WithModel(model)}
		if cfg.URL != "" {
			opts = append(opts, ollama.WithServerURL(cfg.URL))
		}
		c, err := ollama.New(opts...)
		if err != nil {
			return nil, fmt.Errorf("embedder: ollama client: %w", err)
		}
		client = c
	case ProviderOpenAI:
		if model == "" {
			model = DefaultOpenAIModel
		}
		opts := []openai.Option{openai.WithEmbeddingModel(model)}
		key := cfg.APIKey
		if key == "" {
			key = os.Getenv("OPENAI_API_KEY")
		}
		if key == "" && cfg.URL != "" {
			key = "none" // a self-hosted server that checks no key
		}
		if key != "" {
			opts = append(opts, openai.WithToken(key))
		}
		if cfg.URL != "" {
			opts = append(opts, openai.WithBaseURL(cfg.URL))
		}
		if cfg.Dimensions > 0 {
			opts = append(opts, openai.WithEmbeddingDimensions(cfg.Dimensions))
		}
		c, err := openai.New(opts...)
		if err != nil {
			return nil, fmt.Errorf("embedder: openai client: %w", err)
		}
		client = c
	}
	inner, err := embeddings.NewEmbedder(client, embeddings.WithBatchSize(remoteBatch))
	if err != nil {
		return nil, fmt.Errorf("embedder: %s: %w", provider, err)
	}
	r := &remote{inner: inner, dims: cfg.Dimensions}
	probe, err := r.EmbedQuery(ctx, "probe")
	if err != nil {
		return nil, fmt.Errorf("embedder: %s model %q at %s does not answer: %w", provider, model, orDefault(cfg.URL), err)
	}
	r.dims = len(probe)
	r.id = fmt.Sprintf("%s:%s:d=%d", provider, model, r.dims)
	return r, nil
}

func orDefault(u string) string {
	if u == "" {
		return "the default URL"
	}
	return u
}

func (r *remote) ID() string { return r.id }

func (r *remote) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	vs, err := r.EmbedDocuments(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

func (r *remote) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	// langchaingo rewrites the slice it is given (newline stripping), so
	// it gets its own.
	send := make([]string, 0, len(texts))
	at := make([]int, 0, len(texts))
	for i, t := range texts {
		if strings.TrimSpace(t) != "" {
			send = append(send, t)
			at = append(at, i)
		}
	}
	if len(send) > 0 {
		vs, err := r.inner.EmbedDocuments(ctx, send)
		if err != nil {
			return nil, err
		}
		if len(vs) != len(send) {
			return nil, fmt.Errorf("server returned %d vectors for %d texts", len(vs), len(send))
		}
		for k, v := range vs {
			if err := r.check(v); err != nil {
				return nil, fmt.Errorf("text %d: %w", at[k], err)
			}
			out[at[k]] = Normalize(v)
		}
	}
	for i := range out {
		if out[i] == nil {
			out[i] = make([]float32, r.dims)
		}
	}
	return out, nil
}

var errBadVector = errors.New("bad vector from server")

func (r *remote) check(v []float32) error {
	if len(v) == 0 || (r.dims > 0 && len(v) != r.dims) {
		return fmt.Errorf("%w: %d dimensions, want %d", errBadVector, len(v), r.dims)
	}
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("%w: not a finite number", errBadVector)
		}
	}
	return nil
}

// Normalize returns v scaled to unit length (a copy), or v if it is zero.
func Normalize(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return v
	}
	inv := float32(1 / math.Sqrt(n))
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x * inv
	}
	return out
}
