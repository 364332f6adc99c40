package execute

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/nats-io/nats.go/micro"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
)

// One http tool call against a loopback server: template filling, the host
// check, the request and reading the JSON answer.
func BenchmarkHTTPExecutor(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"ok":true,"items":[1,2,3]}`)
	}))
	defer srv.Close()
	m := httpTool("t/bench", searchParams, schemas.Executor{Method: "POST",
		URL: srv.URL + "/users/{name}/files?q={q}&tag={tags}", Headers: map[string]string{"X-Name": "{name}"},
		Body: `{"query": "{q}", "n": "{n}"}`})
	e := New(registry.New(m), nil, WithRetryBudget(0), WithGrants(ClassNetwork))
	c := call("t/bench", map[string]any{"name": "a/b", "q": "x y", "n": 3, "tags": []any{"a", "b"}})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Execute(ctx, c); err != nil {
			b.Fatal(err)
		}
	}
}

// One nats tool call to a micro service on an embedded server.
func BenchmarkNATSExecutor(b *testing.B) {
	env := pipelinetest.Start(b)
	svc, err := micro.AddService(env.NC, micro.Config{Name: "bench", Version: "1.0.0"})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Stop()
	if err := svc.AddEndpoint("echo", micro.HandlerFunc(func(r micro.Request) { _ = r.Respond(r.Data()) })); err != nil {
		b.Fatal(err)
	}
	m := natsTool("t/echo", "echo", `{"type":"object","properties":{"q":{"type":"string"}}}`, schemas.Executor{})
	e := New(registry.New(m), nil, WithNATS(env.NC), WithRetryBudget(0))
	c := call("t/echo", map[string]any{"q": "hello"})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Execute(ctx, c); err != nil {
			b.Fatal(err)
		}
	}
}
