package main

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
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
			}), false)
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

// The gateway's connection logs a loss when the server goes away, and
// nothing when the gateway itself closes it on the way out (it used to log
// "NATS connection lost" on every normal exit).
func TestConnStateLogIgnoresItsOwnClose(t *testing.T) {
	var logged pipelinetest.Buffer
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&logged, nil)))

	env := pipelinetest.Start(t)
	closed := make(chan struct{})
	connect := func() *nats.Conn {
		opts := append(connStateLog(env.Server.ClientURL()),
			nats.UserCredentials(pipelinetest.AdminCreds(env.Server.DataDir())),
			nats.ClosedHandler(func(*nats.Conn) { close(closed) }))
		nc, err := nats.Connect(env.Server.ClientURL(), opts...)
		if err != nil {
			t.Fatal(err)
		}
		return nc
	}
	nc := connect()
	nc.Close()
	<-closed // callbacks run in order: the disconnect one has run
	if strings.Contains(logged.String(), "connection lost") {
		t.Errorf("closing the connection was logged as a loss:\n%s", logged.String())
	}

	closed = make(chan struct{})
	nc = connect()
	defer nc.Close()
	env.Stop()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(logged.String(), "NATS connection lost") {
		if time.Now().After(deadline) {
			t.Fatalf("the server going away was not logged:\n%s", logged.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
