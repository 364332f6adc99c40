package llmresolve_test

import (
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/workers/llmresolve"
)

func TestNewModelConfig(t *testing.T) {
	tests := []struct {
		name    string
		cfg     llmresolve.Config
		key     string
		wantErr string
	}{
		{"ollama default url", llmresolve.Config{Provider: "ollama"}, "", ""},
		{"ollama url", llmresolve.Config{Provider: "ollama", URL: "http://127.0.0.1:11434/"}, "", ""},
		{"openai key from env", llmresolve.Config{Provider: "openai"}, "sk-test", ""},
		{"openai self-hosted without key", llmresolve.Config{Provider: "openai", URL: "http://127.0.0.1:8000/v1"}, "", ""},
		{"openai without key or url", llmresolve.Config{Provider: "openai"}, "", "OPENAI_API_KEY"},
		{"relative url", llmresolve.Config{Provider: "ollama", URL: "localhost:11434"}, "", "must be absolute"},
		{"ftp url", llmresolve.Config{Provider: "openai", URL: "ftp://x/v1"}, "", "must be absolute"},
		{"unknown provider", llmresolve.Config{Provider: "anthropic"}, "", `provider "anthropic" is unknown`},
		{"none", llmresolve.Config{Provider: "none"}, "", "no provider"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(llmresolve.APIKeyEnv, tt.key)
			m, err := llmresolve.NewModel(tt.cfg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || m == nil {
				t.Fatalf("model %v, error %v", m, err)
			}
		})
	}
}

func TestConfigDefaults(t *testing.T) {
	for _, tt := range []struct {
		cfg     llmresolve.Config
		model   string
		enabled bool
	}{
		{llmresolve.Config{}, "", false},
		{llmresolve.Config{Provider: "none"}, "", false},
		{llmresolve.Config{Provider: "ollama"}, llmresolve.DefaultOllamaModel, true},
		{llmresolve.Config{Provider: "openai"}, llmresolve.DefaultOpenAIModel, true},
		{llmresolve.Config{Provider: "ollama", Model: "qwen3:4b"}, "qwen3:4b", true},
	} {
		if got := tt.cfg.ModelName(); got != tt.model || tt.cfg.Enabled() != tt.enabled {
			t.Errorf("%+v: model %q enabled %v, want %q %v", tt.cfg, got, tt.cfg.Enabled(), tt.model, tt.enabled)
		}
	}
}

func TestNewOptionErrors(t *testing.T) {
	m, err := llmresolve.NewModel(llmresolve.Config{Provider: "ollama"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		opt     llmresolve.Option
		wantErr string
	}{
		{llmresolve.WithTimeout(0), "timeout must be positive"},
		{llmresolve.WithTimeout(-time.Second), "timeout must be positive"},
		{llmresolve.WithMinConfidence(1.5), "between 0 and 1"},
	} {
		if _, err := llmresolve.New(m, tt.opt); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("error %v, want %q", err, tt.wantErr)
		}
	}
	if _, err := llmresolve.New(nil); err == nil {
		t.Error("a resolver without a model was made")
	}
}
