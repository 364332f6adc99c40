// Package llmtest is a fake chat-model server for tests: it speaks the
// Ollama (/api/chat) and OpenAI (/v1/chat/completions) chat protocols over
// real HTTP and answers with scripted replies, so the LLM resolver is
// tested through the same clients it uses against real models.
package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Reply is one scripted answer.
type Reply struct {
	// Text is the assistant message's content.
	Text string
	// Delay holds the answer back (to test timeouts); a client that gives up
	// first ends the wait.
	Delay time.Duration
	// Status, when set, answers with this HTTP status and an error body.
	Status int
}

// Message is one chat message as the server received it.
type Message struct {
	Role    string
	Content string
}

// Request is one chat request as the server received it.
type Request struct {
	Path     string
	Model    string
	Messages []Message
	// JSONMode: the request asked for JSON only (Ollama "format": "json",
	// OpenAI "response_format": {"type": "json_object"}).
	JSONMode bool
}

// Last is the content of the request's last message.
func (r Request) Last() string {
	if len(r.Messages) == 0 {
		return ""
	}
	return r.Messages[len(r.Messages)-1].Content
}

// FakeServer is a scripted chat server. Replies are given out in order, to
// either protocol; a request past the script is answered 500 and reported
// as a test error.
type FakeServer struct {
	*httptest.Server
	t        testing.TB
	mu       sync.Mutex
	replies  []Reply
	requests []Request
}

// NewFakeServer starts a server that answers with replies, and closes it
// when the test ends.
func NewFakeServer(t testing.TB, replies ...Reply) *FakeServer {
	f := &FakeServer{t: t, replies: replies}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/chat", f.ollama)
	mux.HandleFunc("POST /v1/chat/completions", f.openai)
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

// Script appends replies to the script.
func (f *FakeServer) Script(replies ...Reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.replies = append(f.replies, replies...)
}

// Requests returns the requests received so far.
func (f *FakeServer) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.requests...)
}

// OllamaURL is the root URL for an Ollama client; OpenAIURL the base URL
// (with /v1) for an OpenAI-compatible one.
func (f *FakeServer) OllamaURL() string { return f.URL }
func (f *FakeServer) OpenAIURL() string { return f.URL + "/v1" }

// wireRequest is what both protocols send. OpenAI content may be a string
// or a list of parts.
type wireRequest struct {
	Model          string          `json:"model"`
	Stream         *bool           `json:"stream"`
	Format         json.RawMessage `json:"format"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// next records the request and takes the next reply; ok is false when the
// script is exhausted or the request unreadable (already answered).
func (f *FakeServer) next(w http.ResponseWriter, r *http.Request) (wireRequest, Reply, bool) {
	var req wireRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":"bad request: `+err.Error()+`"}`, http.StatusBadRequest)
		f.t.Errorf("fake llm: unreadable request to %s: %v", r.URL.Path, err)
		return req, Reply{}, false
	}
	rec := Request{Path: r.URL.Path, Model: req.Model,
		JSONMode: string(req.Format) == `"json"` || req.ResponseFormat != nil && req.ResponseFormat.Type == "json_object"}
	for _, m := range req.Messages {
		rec.Messages = append(rec.Messages, Message{Role: m.Role, Content: content(m.Content)})
	}
	f.mu.Lock()
	f.requests = append(f.requests, rec)
	if len(f.replies) == 0 {
		f.mu.Unlock()
		f.t.Errorf("fake llm: request %d to %s is past the script; last message: %.200q", len(f.requests), r.URL.Path, rec.Last())
		http.Error(w, `{"error":"script exhausted"}`, http.StatusInternalServerError)
		return req, Reply{}, false
	}
	rep := f.replies[0]
	f.replies = f.replies[1:]
	f.mu.Unlock()
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return req, rep, false
		}
	}
	if rep.Status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.Status)
		fmt.Fprintf(w, `{"error":{"message":"scripted failure %d","type":"server_error"}}`, rep.Status)
		return req, rep, false
	}
	return req, rep, true
}

func content(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return string(raw)
}

// ollama answers as Ollama does: newline-delimited chunks unless the
// request says "stream": false, the last chunk with done true.
func (f *FakeServer) ollama(w http.ResponseWriter, r *http.Request) {
	req, rep, ok := f.next(w, r)
	if !ok {
		return
	}
	now := time.Now().UTC().Format(time.RFC3339Nano)
	chunk := func(text string, done bool) map[string]any {
		m := map[string]any{"model": req.Model, "created_at": now, "message": map[string]any{"role": "assistant", "content": text}, "done": done}
		if done {
			m["done_reason"] = "stop"
			m["eval_count"] = len(strings.Fields(rep.Text))
		}
		return m
	}
	enc := json.NewEncoder(w)
	if req.Stream != nil && !*req.Stream {
		w.Header().Set("Content-Type", "application/json")
		_ = enc.Encode(chunk(rep.Text, true))
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	// Split the reply in two chunks, as a streaming server would.
	half := len(rep.Text) / 2
	for half > 0 && !isBoundary(rep.Text, half) {
		half--
	}
	_ = enc.Encode(chunk(rep.Text[:half], false))
	_ = enc.Encode(chunk(rep.Text[half:], false))
	_ = enc.Encode(chunk("", true))
}

func isBoundary(s string, i int) bool { return i == len(s) || s[i]&0xC0 != 0x80 }

// openai answers a chat completion. The resolver does not stream, so a
// streaming request is a test failure.
func (f *FakeServer) openai(w http.ResponseWriter, r *http.Request) {
	req, rep, ok := f.next(w, r)
	if !ok {
		return
	}
	if req.Stream != nil && *req.Stream {
		f.t.Errorf("fake llm: streaming chat completion requested; only whole answers are scripted")
		http.Error(w, `{"error":{"message":"streaming is not scripted"}}`, http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-fake", "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
		"choices": []any{map[string]any{
			"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": rep.Text},
		}},
		"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
	})
}
