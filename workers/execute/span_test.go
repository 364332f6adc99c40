package execute

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
)

// callerTrace is a context carrying a span context, as the execute stage's
// is when the output came with a traceparent.
func callerTrace(t *testing.T) (context.Context, trace.TraceID) {
	t.Helper()
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, Remote: true})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return trace.ContextWithRemoteSpanContext(ctx, sc), tid
}

// http and NATS tools receive the call's W3C trace context, so a traced
// service joins the trace; an http manifest's own traceparent is kept.
func TestToolCallsCarryTraceContext(t *testing.T) {
	ctx, tid := callerTrace(t)
	srv, reqs, _ := recorder(t, nil)
	e := httpExecutor(t, []schemas.Manifest{
		httpTool("t/get", "", schemas.Executor{Method: "GET", URL: srv.URL + "/x"}),
		httpTool("t/own", "", schemas.Executor{Method: "GET", URL: srv.URL + "/y", Headers: map[string]string{"Traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}),
	}, WithRetryBudget(0))
	if _, err := e.Execute(ctx, call("t/get", nil)); err != nil {
		t.Fatal(err)
	}
	if got := (<-reqs).header.Get("Traceparent"); !strings.HasPrefix(got, "00-"+tid.String()+"-") {
		t.Errorf("http tool got traceparent %q, want the caller's trace %s", got, tid)
	}
	if _, err := e.Execute(ctx, call("t/own", nil)); err != nil {
		t.Fatal(err)
	}
	if got := (<-reqs).header.Get("Traceparent"); !strings.Contains(got, "0af7651916cd43dd8448eb211c80319c") {
		t.Errorf("the manifest's own traceparent was replaced: %q", got)
	}
	if _, err := e.Execute(context.Background(), call("t/get", nil)); err != nil {
		t.Fatal(err)
	}
	if got := (<-reqs).header.Get("Traceparent"); got != "" {
		t.Errorf("a call without a trace sent traceparent %q", got)
	}

	env := pipelinetest.Start(t)
	seen := make(chan nats.Header, 1)
	sub, err := env.NC.Subscribe("traced.echo", func(m *nats.Msg) {
		seen <- m.Header
		_ = m.Respond([]byte(`{"ok":true}`))
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sub.Unsubscribe() })
	ne := newExecutor(t, []schemas.Manifest{natsTool("traced/echo", "traced.echo", "", schemas.Executor{})}, WithNATS(env.NC), WithRetryBudget(0))
	if _, err := ne.Execute(ctx, call("traced/echo", nil)); err != nil {
		t.Fatal(err)
	}
	if got := pipeline.HeaderCarrier(<-seen).Get("traceparent"); !strings.HasPrefix(got, "00-"+tid.String()+"-") {
		t.Errorf("NATS tool got traceparent %q, want the caller's trace %s", got, tid)
	}
}
