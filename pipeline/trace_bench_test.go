package pipeline

import (
	"context"
	"testing"

	"github.com/nats-io/nats.go"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// BenchmarkTraceMessage is what tracing adds to one message's handling:
// its span, and the trace context and id on two outputs (a hand-off and a
// result). Off (no-op) must stay near zero; on is the recording SDK with
// an exporter that drops the batches.
func BenchmarkTraceMessage(b *testing.B) {
	traced := nats.Header{"traceparent": {"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}
	outs := []Out{
		{Subject: "pipe.discover.s", Data: []byte(`{"id":"i1","text":"x"}`), ID: "a"},
		{Subject: "result.s", Data: []byte(`{"status":"accepted","session_id":"s"}`), ID: "b", StampTraceID: true},
	}
	sdk := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	b.Cleanup(func() { _ = sdk.Shutdown(context.Background()) })
	for _, c := range []struct {
		name   string
		opts   []RunOption
		header nats.Header
	}{
		{"off", nil, nil},
		{"off_with_incoming_traceparent", nil, traced},
		{"on", []RunOption{WithTracerProvider(sdk)}, nil},
	} {
		b.Run(c.name, func(b *testing.B) {
			cfg := runnerConfig{tracer: noopTracer}
			for _, o := range c.opts {
				o(&cfg)
			}
			r := &runner{cfg: cfg, stage: Stage{Name: "parse", Stream: StreamAgent}}
			m := &Msg{Subject: "agent.output.s", Header: c.header, NumDelivered: 1, StreamSeq: 7}
			b.ReportAllocs()
			for b.Loop() {
				ctx, span := r.startSpan(context.Background(), m)
				_ = traceOuts(ctx, outs)
				endSpan(span, OutcomeAck, nil, nil)
			}
		})
	}
}
