package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The MCP HTTP endpoint refuses an invalid session and a body that is not
// UTF-8 with 400 and the rule, before the MCP handler sees the request.
func TestCheckRequestSession(t *testing.T) {
	tests := []struct {
		name, target, header, body string
		status                     int
		mentions                   string
	}{
		{"valid", "/mcp?session=s1", "", `{"jsonrpc":"2.0"}`, http.StatusOK, ""},
		{"no session", "/mcp", "", `{}`, http.StatusOK, ""},
		{"dotted query session", "/mcp?session=a.b", "", `{}`, http.StatusBadRequest, "separates subject tokens"},
		{"wildcard header", "/mcp", ">", `{}`, http.StatusBadRequest, "wildcard"},
		{"invalid UTF-8 body", "/mcp?session=s1", "", "{\"text\":\"\xff\"}", http.StatusBadRequest, "not valid UTF-8"},
		{"lone surrogate body", "/mcp?session=s1", "", `{"text":"\udc00"}`, http.StatusBadRequest, "surrogate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var seen string
			h := checkRequestSession(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				seen = string(b)
			}))
			req := httptest.NewRequest(http.MethodPost, tt.target, strings.NewReader(tt.body))
			if tt.header != "" {
				req.Header.Set("X-Toolyard-Session", tt.header)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.status || !strings.Contains(rec.Body.String(), tt.mentions) {
				t.Fatalf("status %d %q, want %d mentioning %q", rec.Code, rec.Body, tt.status, tt.mentions)
			}
			if tt.status == http.StatusOK && seen != tt.body {
				t.Fatalf("the handler read %q, want the body unchanged %q", seen, tt.body)
			}
		})
	}
}
