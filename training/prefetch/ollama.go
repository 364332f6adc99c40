package prefetch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/toolyard/toolyard/workers/discover/embed"
)

// DelayedOllamaServer is a local HTTP server speaking Ollama's embeddings
// protocol (POST /api/embed {"model", "input"} → {"embeddings"}), backed by
// a local embedder and answering each request after a configurable delay:
// a stand-in for a remote embedder that the real client (langchaingo, via
// embed.New with provider "ollama") talks to over a real socket, so a
// measurement pays the whole remote path — HTTP, JSON, the delay.
type DelayedOllamaServer struct {
	emb   *embed.Local
	model string
	delay atomic.Int64
	srv   *http.Server
	url   string
}

// StartDelayedOllamaServer listens on a free local port. model is the name
// it answers to.
func StartDelayedOllamaServer(emb *embed.Local, model string) (*DelayedOllamaServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("delayed ollama server: %w", err)
	}
	s := &DelayedOllamaServer{emb: emb, model: model, url: "http://" + ln.Addr().String()}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			panic(err) // a listener we own failing is a bug
		}
	}()
	return s, nil
}

// URL is the server's base URL (for embed.Config.URL).
func (s *DelayedOllamaServer) URL() string { return s.url }

// SetDelay sets how long every later request waits before it is answered.
func (s *DelayedOllamaServer) SetDelay(d time.Duration) { s.delay.Store(int64(d)) }

// Close stops the server.
func (s *DelayedOllamaServer) Close() error { return s.srv.Close() }

func (s *DelayedOllamaServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/api/embed" {
		http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
		return
	}
	var req struct {
		Model string          `json:"model"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
		return
	}
	if req.Model != s.model {
		http.Error(w, `{"error":"model not found"}`, http.StatusNotFound)
		return
	}
	var texts []string
	var one string
	if err := json.Unmarshal(req.Input, &one); err == nil {
		texts = []string{one}
	} else if err := json.Unmarshal(req.Input, &texts); err != nil {
		http.Error(w, `{"error":"input must be a string or a list of strings"}`, http.StatusBadRequest)
		return
	}
	time.Sleep(time.Duration(s.delay.Load()))
	vecs, err := s.emb.EmbedDocuments(context.WithoutCancel(r.Context()), texts)
	if err != nil {
		http.Error(w, `{"error":"embed failed"}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"model": s.model, "embeddings": vecs})
}
