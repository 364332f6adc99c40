package embed

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// cannedVector is what the fake servers return for a text: unnormalized,
// and different for different texts, so tests can check both the order
// and the normalization of what comes back.
func cannedVector(text string, dims int) []float32 {
	v := make([]float32, dims)
	for i := range v {
		v[i] = float32(len(text) + i)
	}
	return v
}

func unit(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / math.Sqrt(n))
	}
	return out
}

func closeTo(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-6 {
			return false
		}
	}
	return true
}

// recorder keeps the decoded request bodies a fake server received.
type recorder struct {
	mu     sync.Mutex
	bodies []map[string]any
	header []http.Header
}

func (r *recorder) add(req *http.Request) map[string]any {
	var body map[string]any
	_ = json.NewDecoder(req.Body).Decode(&body)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.bodies = append(r.bodies, body)
	r.header = append(r.header, req.Header.Clone())
	return body
}

// ollamaServer speaks Ollama's POST /api/embed: {"model", "input"} →
// {"embeddings": [[…]]}.
func ollamaServer(t *testing.T, dims int) (*httptest.Server, *recorder) {
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/embed" {
			http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
			return
		}
		body := rec.add(r)
		if body["model"] != "all-minilm" {
			http.Error(w, `{"error":"model not found"}`, http.StatusNotFound)
			return
		}
		input, _ := body["input"].(string)
		_ = json.NewEncoder(w).Encode(map[string]any{"model": "all-minilm", "embeddings": [][]float32{cannedVector(input, dims)}})
	}))
	t.Cleanup(srv.Close)
	return srv, rec
}

// openAIServer speaks POST /v1/embeddings: {"model", "input": [...],
// "dimensions"?} → {"data": [{"embedding", "index"}]}.
func openAIServer(t *testing.T, dims int) (*httptest.Server, *recorder) {
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
			return
		}
		body := rec.add(r)
		if r.Header.Get("Authorization") != "Bearer sk-test" {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":{"message":"Incorrect API key provided"}}`))
			return
		}
		n := dims
		if d, ok := body["dimensions"].(float64); ok {
			n = int(d)
		}
		type item struct {
			Object    string    `json:"object"`
			Embedding []float32 `json:"embedding"`
			Index     int       `json:"index"`
		}
		var data []item
		inputs, _ := body["input"].([]any)
		for i, in := range inputs {
			s, _ := in.(string)
			data = append(data, item{"embedding", cannedVector(s, n), i})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": body["model"],
			"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}})
	}))
	t.Cleanup(srv.Close)
	return srv, rec
}

func TestOllamaProtocol(t *testing.T) {
	srv, rec := ollamaServer(t, 4)
	ctx := context.Background()
	e, err := New(ctx, Config{Provider: "ollama", Model: "all-minilm", URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := e.ID(), "ollama:all-minilm:d=4"; got != want {
		t.Errorf("ID() = %q, want %q", got, want)
	}
	texts := []string{"weather forecast", "", "google maps"}
	vs, err := e.EmbedDocuments(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		want := unit(cannedVector(text, 4))
		if text == "" {
			want = make([]float32, 4)
		}
		if !closeTo(vs[i], want) {
			t.Errorf("%q: got %v, want %v", text, vs[i], want)
		}
	}
	// The probe, then one request per non-empty text (Ollama's API takes
	// one input per call in langchaingo).
	if len(rec.bodies) != 3 {
		t.Errorf("server got %d requests, want 3", len(rec.bodies))
	}
	q, err := e.EmbedQuery(ctx, "weather forecast")
	if err != nil || !closeTo(q, vs[0]) {
		t.Errorf("EmbedQuery = %v, %v; want the document vector", q, err)
	}
}

func TestOpenAIProtocol(t *testing.T) {
	srv, rec := openAIServer(t, 6)
	ctx := context.Background()
	e, err := New(ctx, Config{Provider: "openai", Model: "text-embedding-3-small", URL: srv.URL + "/v1", APIKey: "sk-test", Dimensions: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := e.ID(), "openai:text-embedding-3-small:d=3"; got != want {
		t.Errorf("ID() = %q, want %q", got, want)
	}
	texts := []string{"weather forecast", "   ", "google maps", "play a song"}
	vs, err := e.EmbedDocuments(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		want := unit(cannedVector(text, 3))
		if strings.TrimSpace(text) == "" {
			want = make([]float32, 3)
		}
		if !closeTo(vs[i], want) {
			t.Errorf("%q: got %v, want %v", text, vs[i], want)
		}
	}
	last := rec.bodies[len(rec.bodies)-1]
	if last["model"] != "text-embedding-3-small" || last["dimensions"] != float64(3) {
		t.Errorf("request body %v lacks the model or the dimensions", last)
	}
	if in, _ := last["input"].([]any); len(in) != 3 {
		t.Errorf("one batch of %d inputs, want the 3 non-empty texts", len(in))
	}
}

func TestRemoteProtocolErrors(t *testing.T) {
	ctx := context.Background()
	ollama, _ := ollamaServer(t, 4)
	openai, _ := openAIServer(t, 4)
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"unknown ollama model", Config{Provider: "ollama", Model: "nope", URL: ollama.URL}, "does not answer"},
		{"wrong api key", Config{Provider: "openai", URL: openai.URL + "/v1", APIKey: "sk-wrong"}, "401"},
		{"dimensions differ", Config{Provider: "ollama", Model: "all-minilm", URL: ollama.URL, Dimensions: 8}, "4 dimensions, want 8"},
		{"relative url", Config{Provider: "ollama", URL: "localhost"}, "must be absolute"},
		{"unknown provider", Config{Provider: "bert"}, "unknown provider"},
		{"negative dimensions", Config{Provider: "openai", URL: openai.URL, Dimensions: -1}, "≥ 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(ctx, tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New = %v, want an error mentioning %q", err, tc.want)
			}
		})
	}
}

func TestRemoteProtocolBadResponses(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
	}{
		{"too few vectors", `{"data":[{"embedding":[1,2],"index":0}]}`},
		{"wrong length", `{"data":[{"embedding":[1,2],"index":0},{"embedding":[1,2,3],"index":1}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls int
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				calls++
				if calls == 1 { // the probe
					_, _ = w.Write([]byte(`{"data":[{"embedding":[1,2],"index":0}]}`))
					return
				}
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			e, err := New(context.Background(), Config{Provider: "openai", URL: srv.URL, APIKey: "k"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.EmbedDocuments(context.Background(), []string{"a", "b"}); err == nil {
				t.Error("accepted a malformed response")
			}
		})
	}
}

func TestNewLocalProvider(t *testing.T) {
	e, err := New(context.Background(), Config{})
	if errors.Is(err, ErrUnavailable) {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(e.ID(), "local:") {
		t.Errorf("default provider id %q", e.ID())
	}
	if _, err := New(context.Background(), Config{Provider: "local", Dimensions: 7}); err == nil {
		t.Error("local provider accepted 7 dimensions")
	}
}
