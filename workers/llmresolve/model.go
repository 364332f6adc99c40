package llmresolve

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"
)

// Providers of chat models.
const (
	ProviderNone   = "none"
	ProviderOllama = "ollama"
	// ProviderOpenAI is OpenAI or any server that speaks its chat
	// completions protocol (vLLM, llama.cpp, LM Studio, Ollama's /v1, …).
	ProviderOpenAI = "openai"
)

// Default models per provider.
const (
	DefaultOllamaModel = "functiongemma"
	DefaultOpenAIModel = "gpt-4o-mini"
)

// APIKeyEnv is the environment variable the OpenAI provider reads its key
// from. Keys never come from flags, which end up in process lists and shell
// histories.
const APIKeyEnv = "OPENAI_API_KEY"

// Config says which chat model to use.
type Config struct {
	// Provider is ProviderOllama, ProviderOpenAI or ProviderNone ("" is none).
	Provider string
	// Model defaults to DefaultOllamaModel or DefaultOpenAIModel.
	Model string
	// URL is the server: for Ollama its root (http://127.0.0.1:11434 by
	// default), for OpenAI-compatible servers the base URL including /v1
	// (https://api.openai.com/v1 by default).
	URL string
	// HTTPClient, when set, makes the requests (tests, proxies).
	HTTPClient *http.Client
}

// Enabled reports whether c names a provider.
func (c Config) Enabled() bool {
	return c.Provider != "" && c.Provider != ProviderNone
}

// ModelName is the model c uses, defaults applied.
func (c Config) ModelName() string {
	switch {
	case c.Model != "":
		return c.Model
	case c.Provider == ProviderOllama:
		return DefaultOllamaModel
	case c.Provider == ProviderOpenAI:
		return DefaultOpenAIModel
	}
	return ""
}

// NewModel builds the chat model c describes. It does not contact the
// server: a model that is down is found at the first request, and the
// resolver falls back then.
func NewModel(c Config) (llms.Model, error) {
	if c.URL != "" {
		// langchaingo's ollama option exits the process on a bad URL.
		u, err := url.Parse(c.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("llm: %s URL %q must be absolute, like http://host:port", c.Provider, c.URL)
		}
	}
	model := c.ModelName()
	switch c.Provider {
	case ProviderOllama:
		opts := []ollama.Option{ollama.WithModel(model)}
		if c.URL != "" {
			opts = append(opts, ollama.WithServerURL(strings.TrimSuffix(c.URL, "/")))
		}
		if c.HTTPClient != nil {
			opts = append(opts, ollama.WithHTTPClient(c.HTTPClient))
		}
		m, err := ollama.New(opts...)
		if err != nil {
			return nil, fmt.Errorf("llm: ollama client for model %q: %w", model, err)
		}
		return m, nil
	case ProviderOpenAI:
		opts := []openai.Option{openai.WithModel(model)}
		key := os.Getenv(APIKeyEnv)
		if key == "" && c.URL != "" {
			key = "none" // a self-hosted server that checks no key
		}
		if key == "" {
			return nil, fmt.Errorf("llm: the openai provider needs an API key in $%s (or --llm-url for a server that needs none)", APIKeyEnv)
		}
		opts = append(opts, openai.WithToken(key))
		if c.URL != "" {
			opts = append(opts, openai.WithBaseURL(strings.TrimSuffix(c.URL, "/")))
		}
		if c.HTTPClient != nil {
			opts = append(opts, openai.WithHTTPClient(c.HTTPClient))
		}
		m, err := openai.New(opts...)
		if err != nil {
			return nil, fmt.Errorf("llm: openai client for model %q: %w", model, err)
		}
		return m, nil
	case "", ProviderNone:
		return nil, fmt.Errorf("llm: no provider configured")
	}
	return nil, fmt.Errorf("llm: provider %q is unknown (ollama, openai or none)", c.Provider)
}
