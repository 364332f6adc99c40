package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

const (
	tokenA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	tokenB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

func writeTokens(t *testing.T, body string, mode os.FileMode) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(file, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestReadMCPTokens(t *testing.T) {
	tests := []struct {
		name, body string
		mode       os.FileMode
		err        string
	}{
		{"two tokens and a comment", "# team tokens\n" + tokenA + " demo team-a-*\n\n" + tokenB + " *  # everything\n", 0o600, ""},
		{"readable by every user", tokenA + " demo\n", 0o644, "readable by every user"},
		{"short token", "abc demo\n", 0o600, "at least 32"},
		{"no sessions", tokenA + "\n", 0o600, "the sessions it may act for"},
		{"bad session", tokenA + " a.b\n", 0o600, `session "a.b"`},
		{"twice", tokenA + " a\n" + tokenA + " b\n", 0o600, "given twice"},
		{"empty", "# nothing\n", 0o600, "holds no token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks, err := readMCPTokens(writeTokens(t, tt.body, tt.mode))
			if tt.err == "" {
				if err != nil || len(toks) != 2 {
					t.Fatalf("%d tokens, %v", len(toks), err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("err %v, want it to mention %q", err, tt.err)
			}
		})
	}
}

// With --tokens, the HTTP endpoint takes only requests carrying one of
// them, each for the sessions it allows; a request naming none gets a new
// session under the token's prefix.
func TestMCPTokensGuardTheEndpoint(t *testing.T) {
	toks, err := readMCPTokens(writeTokens(t, tokenA+" demo team-a-*\n"+tokenB+" other\n", 0o600))
	if err != nil {
		t.Fatal(err)
	}
	var acted string
	h := auth.RequireBearerToken(toks.verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(
		checkRequestSession(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			acted, _ = r.Context().Value(sessionKey{}).(string)
		}), true))
	tests := []struct {
		name, token, session string
		status               int
		acts                 string // the session acted for, or its prefix
	}{
		{"no token", "", "demo", http.StatusUnauthorized, ""},
		{"unknown token", strings.Repeat("c", 40), "demo", http.StatusUnauthorized, ""},
		{"its session", tokenA, "demo", http.StatusOK, "demo"},
		{"under its prefix", tokenA, "team-a-7", http.StatusOK, "team-a-7"},
		{"another session", tokenA, "other", http.StatusForbidden, ""},
		{"a new session under its prefix", tokenA, "", http.StatusOK, "team-a-"},
		{"no prefix to make one under", tokenB, "", http.StatusForbidden, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acted = ""
			req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{}`))
			if tt.token != "" {
				req.Header.Set("Authorization", "Bearer "+tt.token)
			}
			if tt.session != "" {
				req.Header.Set("X-Toolyard-Session", tt.session)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("status %d (%s), want %d", rec.Code, strings.TrimSpace(rec.Body.String()), tt.status)
			}
			if !strings.HasPrefix(acted, tt.acts) || (tt.acts == "") != (acted == "") {
				t.Errorf("acted for %q, want %q", acted, tt.acts)
			}
		})
	}
}

func TestLoopbackOnly(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8765": true, "localhost:8765": true, "[::1]:8765": true, "127.3.2.1:1": true,
		"0.0.0.0:8765": false, ":8765": false, "[::]:8765": false, "10.0.0.5:8765": false, "example.com:80": false, "bad": false,
	} {
		if got := loopbackOnly(addr); got != want {
			t.Errorf("loopbackOnly(%q) = %v, want %v", addr, got, want)
		}
	}
}
