package pipeline

import (
	"bytes"
	"context"
	"strings"

	"github.com/nats-io/nats.go"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// TracerName is the instrumentation name of the runner's spans.
const TracerName = "github.com/toolyard/toolyard/pipeline"

// TraceIDKey is the JSON key a traced message's trace id is written under
// (Out.StampTraceID): results and audit records carry it.
const TraceIDKey = "trace_id"

// propagator carries the trace from stage to stage in NATS headers, as W3C
// trace context (traceparent, tracestate): any OpenTelemetry-aware
// publisher or reader of the streams joins the same trace.
var propagator = propagation.TraceContext{}

// HeaderCarrier lets OpenTelemetry propagators read and write NATS headers.
type HeaderCarrier nats.Header

var _ propagation.TextMapCarrier = HeaderCarrier(nil)

// Get returns the first value of key. Header names are case-insensitive
// in W3C trace context but case-sensitive in NATS, so a publisher that
// wrote "Traceparent" is still read.
func (c HeaderCarrier) Get(key string) string {
	if v := c[key]; len(v) > 0 {
		return v[0]
	}
	for k, v := range c {
		if len(v) > 0 && strings.EqualFold(k, key) {
			return v[0]
		}
	}
	return ""
}

// Set replaces the values of key.
func (c HeaderCarrier) Set(key, value string) { c[key] = []string{value} }

// Keys lists the header names.
func (c HeaderCarrier) Keys() []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	return keys
}

// ExtractTrace returns ctx carrying the remote span context in h, if any.
func ExtractTrace(ctx context.Context, h nats.Header) context.Context {
	if len(h) == 0 {
		return ctx
	}
	return propagator.Extract(ctx, HeaderCarrier(h))
}

// InjectTrace returns h (copied, never changed in place: outputs may share
// a header map) with the span context of ctx added, or h itself when ctx
// carries no valid span context.
func InjectTrace(ctx context.Context, h nats.Header) nats.Header {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return h
	}
	out := make(nats.Header, len(h)+2)
	for k, v := range h {
		out[k] = v
	}
	propagator.Inject(ctx, HeaderCarrier(out))
	return out
}

// WithTracerProvider makes the runner start a span per message from tp,
// child of the span context in the message's headers, and pass it on in
// the headers of everything the stage publishes. The default is the no-op
// provider: it starts nothing and passes on only a trace context that
// arrived with the message, at the cost of a header lookup.
func WithTracerProvider(tp trace.TracerProvider) RunOption {
	return func(c *runnerConfig) {
		if tp != nil {
			_, isNoop := tp.(noop.TracerProvider)
			c.tracer, c.traced = tp.Tracer(TracerName), !isNoop
		}
	}
}

var noopTracer = noop.NewTracerProvider().Tracer(TracerName)

// startSpan starts the span of one message's handling.
func (r *runner) startSpan(ctx context.Context, m *Msg) (context.Context, trace.Span) {
	ctx = ExtractTrace(ctx, m.Header)
	if !r.cfg.traced {
		// The no-op tracer's span only carries the incoming span context;
		// skip building attributes nobody records.
		return r.cfg.tracer.Start(ctx, r.stage.Name)
	}
	return r.cfg.tracer.Start(ctx, r.stage.Name,
		trace.WithSpanKind(trace.SpanKindConsumer),
		trace.WithAttributes(
			attribute.String("messaging.system", "nats"),
			attribute.String("messaging.destination.name", m.Subject),
			attribute.String("messaging.operation.type", "process"),
			attribute.String("toolyard.stage", r.stage.Name),
			attribute.String("toolyard.stream", r.stage.Stream),
			attribute.Int64("toolyard.stream_seq", int64(m.StreamSeq)),
			attribute.Int64("messaging.message.delivery_count", int64(m.NumDelivered)),
		))
}

// endSpan records how the message was settled; the error, like every
// other thing written about the message, is scrubbed of its secrets.
func endSpan(span trace.Span, outcome string, err error, sc *Scrubber) {
	if span.IsRecording() {
		span.SetAttributes(attribute.String("toolyard.outcome", outcome))
		if err != nil {
			span.SetStatus(codes.Error, sc.String(err.Error()))
		}
	}
	span.End()
}

// traceOuts prepares outputs for publishing under the span of ctx: the
// trace context goes into each one's headers and its trace id into the
// outputs that asked for it (StampTraceID). Both are made once a message.
func traceOuts(ctx context.Context, outs []Out) []Out {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() || len(outs) == 0 {
		return outs
	}
	tc := nats.Header{}
	propagator.Inject(ctx, HeaderCarrier(tc))
	var field []byte
	res := make([]Out, len(outs))
	for i, o := range outs {
		if o.traced {
			res[i] = o
			continue
		}
		o.traced = true
		h := make(nats.Header, len(o.Header)+len(tc))
		for k, v := range o.Header {
			h[k] = v
		}
		for k, v := range tc {
			h[k] = v
		}
		o.Header = h
		if o.StampTraceID {
			if field == nil {
				// A trace id is hex: nothing to escape.
				field = []byte(`"` + TraceIDKey + `":"` + sc.TraceID().String() + `"`)
			}
			o.Data, o.Value = stampTraceID(o.Data, field), nil
		}
		res[i] = o
	}
	return res
}

// stampTraceID adds field ("trace_id":"…") to a JSON object without
// decoding it. The object comes from encoding a struct whose trace id was
// empty (so the key is absent: it is omitempty); anything else is left as
// it is.
func stampTraceID(data, field []byte) []byte {
	if len(data) < 2 || data[0] != '{' {
		return data
	}
	out := make([]byte, 0, len(data)+len(field)+1)
	out = append(out, '{')
	out = append(out, field...)
	if rest := bytes.TrimLeft(data[1:], " \t\r\n"); len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, data[1:]...)
}
