package pipeline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

func TestHeaderCarrierRoundTrip(t *testing.T) {
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled})
	ctx := trace.ContextWithSpanContext(context.Background(), sc)
	orig := nats.Header{"Keep": {"me"}}
	h := pipeline.InjectTrace(ctx, orig)
	if len(orig) != 1 {
		t.Fatalf("InjectTrace changed its input: %v", orig)
	}
	if got := h.Get("traceparent"); got != "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" {
		t.Fatalf("traceparent = %q", got)
	}
	if h.Get("Keep") != "me" {
		t.Fatalf("other headers lost: %v", h)
	}
	for name, hdr := range map[string]nats.Header{
		"as written":        h,
		"other letter case": {"Traceparent": h["traceparent"]},
	} {
		got := trace.SpanContextFromContext(pipeline.ExtractTrace(context.Background(), hdr))
		if got.TraceID() != tid || got.SpanID() != sid || !got.IsRemote() {
			t.Errorf("%s: extracted %v, want trace %s span %s", name, got, tid, sid)
		}
	}
	if pipeline.InjectTrace(context.Background(), orig)["traceparent"] != nil {
		t.Error("a context without a span context injected one")
	}
	if got := trace.SpanContextFromContext(pipeline.ExtractTrace(context.Background(), nats.Header{"traceparent": {"junk"}})); got.IsValid() {
		t.Errorf("a malformed traceparent gave a span context: %v", got)
	}
}

// TestRunnerTracesAcrossStages runs two stages, first → second, with a
// recording tracer: the second stage's span is a child of the first's,
// both in the trace the publisher started, and the output that asked for
// it carries the trace id.
// A trace follows an intent from stage to stage, whether the hand-off goes
// through the stream or straight to a stage of the same process (Local).
func TestRunnerTracesAcrossStages(t *testing.T) {
	for _, local := range []bool{false, true} {
		t.Run(fmt.Sprintf("local=%v", local), func(t *testing.T) { tracesAcrossStages(t, local) })
	}
}

func tracesAcrossStages(t *testing.T, local bool) {
	env := pipelinetest.Start(t)
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	opts := []pipeline.RunOption{pipeline.WithFetchWait(200 * time.Millisecond), pipeline.WithTracerProvider(tp)}
	if local {
		opts = append(opts, pipeline.WithLocal(pipeline.NewLocal()))
	}
	run := func(name, in string, h pipeline.Handler) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		st := pipeline.Stage{Name: name, Stream: pipeline.StreamPipe, Subjects: []string{in}, Handler: h, Chainable: true}
		go func() {
			done <- pipeline.Run(ctx, env.JS, st, opts...)
		}()
		t.Cleanup(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("stage %s: %v", name, err)
			}
		})
	}
	run("first", "pipe.first.>", func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
		return []pipeline.Out{{Subject: "pipe.second.s", Data: m.Data, ID: "second"}}, nil
	})
	var fromStream atomic.Int32
	run("second", "pipe.second.>", func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
		if m.StreamSeq != 0 {
			fromStream.Add(1)
		}
		return []pipeline.Out{
			{Subject: "result.s", Data: []byte(`{"status":"done"}`), ID: "res", StampTraceID: true},
			{Subject: "result.t", Data: []byte(`{}`), ID: "empty", StampTraceID: true},
			{Subject: "result.u", Data: []byte(`{"status":"plain"}`), ID: "plain"},
		}, nil
	})

	if local {
		// Wait for second's consumer: until its setup is done, first
		// publishes its hand-offs.
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if _, err := env.JS.Consumer(context.Background(), pipeline.StreamPipe, "second"); err == nil || time.Now().After(deadline) {
				break
			}
		}
		time.Sleep(100 * time.Millisecond)
	}

	// The publisher's own span: the agent platform's trace.
	tid, _ := trace.TraceIDFromHex("0af7651916cd43dd8448eb211c80319c")
	sid, _ := trace.SpanIDFromHex("b7ad6b7169203331")
	pctx := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled}))
	msg := &nats.Msg{Subject: "pipe.first.s", Data: []byte(`{}`), Header: pipeline.InjectTrace(pctx, nil)}
	if _, err := env.JS.PublishMsg(context.Background(), msg); err != nil {
		t.Fatal(err)
	}

	got := env.Collect(t, pipeline.StreamResult, "result.>", 3, 10*time.Second)
	if len(got) != 3 {
		t.Fatalf("got %d results, want 3", len(got))
	}
	want := map[string]string{
		"result.s": `{"trace_id":"` + tid.String() + `","status":"done"}`,
		"result.t": `{"trace_id":"` + tid.String() + `"}`,
		"result.u": `{"status":"plain"}`,
	}
	for _, m := range got {
		if string(m.Data()) != want[m.Subject()] {
			t.Errorf("%s: %s, want %s", m.Subject(), m.Data(), want[m.Subject()])
		}
		if !json.Valid(m.Data()) {
			t.Errorf("%s: not JSON: %s", m.Subject(), m.Data())
		}
		if sc := trace.SpanContextFromContext(pipeline.ExtractTrace(context.Background(), m.Headers())); sc.TraceID() != tid {
			t.Errorf("%s: headers carry trace %s, want %s", m.Subject(), sc.TraceID(), tid)
		}
	}

	var first, second sdktrace.ReadOnlySpan
	deadline := time.Now().Add(5 * time.Second)
	for (first == nil || second == nil) && time.Now().Before(deadline) {
		for _, s := range rec.Ended() {
			switch s.Name() {
			case "first":
				first = s
			case "second":
				second = s
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	if first == nil || second == nil {
		t.Fatalf("spans ended: %d, want first and second", len(rec.Ended()))
	}
	if first.SpanContext().TraceID() != tid || second.SpanContext().TraceID() != tid {
		t.Errorf("trace ids %s, %s; want both %s", first.SpanContext().TraceID(), second.SpanContext().TraceID(), tid)
	}
	if first.Parent().SpanID() != sid {
		t.Errorf("first's parent is %s, want the publisher's span %s", first.Parent().SpanID(), sid)
	}
	if second.Parent().SpanID() != first.SpanContext().SpanID() {
		t.Errorf("second's parent is %s, want first's span %s", second.Parent().SpanID(), first.SpanContext().SpanID())
	}
	if local != (fromStream.Load() == 0) {
		t.Errorf("local hand-offs %v, but second read %d messages from its stream", local, fromStream.Load())
	}
	if second.SpanKind() != trace.SpanKindConsumer {
		t.Errorf("span kind %v, want consumer", second.SpanKind())
	}
}

// TestRunnerWithoutTracingPassesTraceOn: with the default (no-op) tracer
// a trace context that arrives with a message still reaches what the
// stage publishes, and a message without one gets none.
func TestRunnerWithoutTracingPassesTraceOn(t *testing.T) {
	env := pipelinetest.Start(t)
	runStage(t, env, func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
		return []pipeline.Out{{Subject: "result." + m.Subject[len("pipe.test."):], Data: []byte(`{"a":1}`), ID: m.Subject, StampTraceID: true}}, nil
	})
	tid, _ := trace.TraceIDFromHex("11111111111111111111111111111111")
	sid, _ := trace.SpanIDFromHex("2222222222222222")
	pctx := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled}))
	for _, m := range []*nats.Msg{
		{Subject: "pipe.test.traced", Data: []byte(`{}`), Header: pipeline.InjectTrace(pctx, nil)},
		{Subject: "pipe.test.untraced", Data: []byte(`{}`)},
	} {
		if _, err := env.JS.PublishMsg(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]jetstream.Msg{}
	for _, m := range env.Collect(t, pipeline.StreamResult, "result.>", 2, 10*time.Second) {
		got[m.Subject()] = m
	}
	if m := got["result.traced"]; m == nil || string(m.Data()) != `{"trace_id":"11111111111111111111111111111111","a":1}` || m.Headers().Get("traceparent") == "" {
		t.Errorf("traced: %v", m)
	}
	if m := got["result.untraced"]; m == nil || string(m.Data()) != `{"a":1}` || m.Headers().Get("traceparent") != "" {
		t.Errorf("untraced: %v", m)
	}
}

// A dead letter keeps the trace of the message it holds (a replay of it
// continues that trace), and the span records the rejection.
func TestDeadLetterKeepsTrace(t *testing.T) {
	env := pipelinetest.Start(t)
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	runStage(t, env, func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
		return nil, pipeline.Permanentf("no good")
	}, pipeline.WithTracerProvider(tp))
	tid, _ := trace.TraceIDFromHex("33333333333333333333333333333333")
	sid, _ := trace.SpanIDFromHex("4444444444444444")
	pctx := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled}))
	if _, err := env.JS.PublishMsg(context.Background(), &nats.Msg{Subject: "pipe.test.bad", Data: []byte(`{}`), Header: pipeline.InjectTrace(pctx, nil)}); err != nil {
		t.Fatal(err)
	}
	got := env.Collect(t, pipeline.StreamDLQ, pipeline.DLQSubject("test"), 1, 10*time.Second)
	if len(got) != 1 {
		t.Fatalf("dead letters: %d, want 1", len(got))
	}
	sc := trace.SpanContextFromContext(pipeline.ExtractTrace(context.Background(), got[0].Headers()))
	if sc.TraceID() != tid || sc.SpanID() == sid {
		t.Errorf("dead letter's trace context %v: want trace %s under the stage's span, not the publisher's", sc, tid)
	}
	var span sdktrace.ReadOnlySpan
	for deadline := time.Now().Add(5 * time.Second); span == nil && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, s := range rec.Ended() {
			span = s
		}
	}
	if span == nil || span.SpanContext().SpanID() != sc.SpanID() || span.Status().Code != codes.Error || span.Status().Description != "no good" {
		t.Errorf("stage span %v: want the dead letter's parent, status error \"no good\"", span)
	}
}
