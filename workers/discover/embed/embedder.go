package embed

import (
	"context"
	"fmt"
	"strings"

	"github.com/tmc/langchaingo/embeddings"
)

// Embedder is langchaingo's embedder plus the id that names its vectors.
// Every vector it returns is unit length (cosine is a dot product), or all
// zeros for a text with nothing to embed.
type Embedder interface {
	embeddings.Embedder
	// ID names the model and every setting that changes its vectors; it
	// prefixes cache keys, so vectors of different ids never mix.
	ID() string
}

// Providers.
const (
	ProviderLocal  = "local"
	ProviderOllama = "ollama"
	ProviderOpenAI = "openai"
)

// Config chooses and configures an embedder.
type Config struct {
	// Provider is "local" (the default: offline word vectors compiled into
	// the binary), "ollama", or "openai" (any OpenAI-compatible
	// embeddings endpoint).
	Provider string `json:"provider,omitempty"`
	// Model is the remote model: for ollama e.g. "all-minilm" or
	// "nomic-embed-text" (the default), for openai e.g.
	// "text-embedding-3-small" (the default). The local provider has one
	// model and ignores it.
	Model string `json:"model,omitempty"`
	// URL is the server: for ollama its base URL (default
	// http://127.0.0.1:11434, or $OLLAMA_HOST), for openai the API base
	// including /v1 (default https://api.openai.com/v1, or $OPENAI_BASE_URL).
	URL string `json:"url,omitempty"`
	// APIKey authenticates to an openai endpoint (default
	// $OPENAI_API_KEY). A server at a custom URL that wants none may go
	// without.
	APIKey string `json:"api_key,omitempty"`
	// Dimensions, when set, is the vector length: openai models that can
	// shorten their vectors are asked for it, and every provider's vectors
	// are checked against it.
	Dimensions int `json:"dimensions,omitempty"`
}

// New returns the configured embedder. A remote one is probed with one
// short text, so a wrong URL, model or key fails here, where the caller can
// fall back to keyword search, rather than on every tool later. An error
// wrapping ErrUnavailable means the local provider has no vectors.
func New(ctx context.Context, cfg Config) (Embedder, error) {
	switch p := strings.ToLower(cfg.Provider); p {
	case "", ProviderLocal:
		l, err := NewLocal()
		if err != nil {
			return nil, err
		}
		if cfg.Dimensions != 0 && cfg.Dimensions != l.Dimensions() {
			return nil, fmt.Errorf("embedder: local vectors have %d dimensions, config asks for %d", l.Dimensions(), cfg.Dimensions)
		}
		return l, nil
	case ProviderOllama, ProviderOpenAI:
		return newRemote(ctx, p, cfg)
	default:
		return nil, fmt.Errorf("embedder: unknown provider %q (want %q, %q or %q)", cfg.Provider, ProviderLocal, ProviderOllama, ProviderOpenAI)
	}
}
