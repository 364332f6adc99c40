package execute

import (
	"context"
	"net/http"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// tracerName is the instrumentation name of the tool-call spans.
const tracerName = "github.com/toolyard/toolyard/workers/execute"

// startCallSpan starts the span of one tool call, a child of the span the
// call runs under (the execute stage's, which the runner started from the
// message's trace context). The tracer is the parent's own provider, so a
// process that exports nothing records nothing here either.
func startCallSpan(ctx context.Context, call schemas.ToolCall) (context.Context, trace.Span) {
	parent := trace.SpanFromContext(ctx)
	name := "tool " + call.ToolID
	if call.ToolID == "" {
		name = "tool " + call.MetaTool
	}
	if !parent.IsRecording() {
		return parent.TracerProvider().Tracer(tracerName).Start(ctx, name)
	}
	return parent.TracerProvider().Tracer(tracerName).Start(ctx, name,
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(
			attribute.String("toolyard.tool_id", call.ToolID),
			attribute.String("toolyard.meta_tool", call.MetaTool),
			attribute.String("toolyard.intent_id", call.IntentID),
			attribute.String("toolyard.session_id", call.SessionID),
			attribute.Bool("toolyard.direct", call.Direct),
		))
}

// endCallSpan records the call's outcome: its duration, exit code and
// status, and the error, scrubbed of the call's secrets like the result.
func endCallSpan(ctx context.Context, span trace.Span, out schemas.ToolOutput, err error) {
	if span.IsRecording() {
		span.SetAttributes(attribute.Float64("toolyard.tool.duration_ms", out.DurationMS))
		if out.ExitCode != nil {
			span.SetAttributes(attribute.Int("toolyard.tool.exit_code", *out.ExitCode))
		}
		if out.StatusCode != 0 {
			span.SetAttributes(attribute.Int("http.response.status_code", out.StatusCode))
		}
		if err != nil {
			span.SetAttributes(attribute.Bool("toolyard.tool.transient", IsTransient(err)))
			span.SetStatus(codes.Error, pipeline.ScrubberFrom(ctx).String(err.Error()))
		}
	}
	span.End()
}

// injectTraceHTTP adds the call's span context to an http tool's request
// headers (W3C traceparent), so a traced service joins the call's trace,
// unless the manifest set a traceparent of its own.
func injectTraceHTTP(ctx context.Context, h http.Header) {
	if h == nil || h.Get("Traceparent") != "" || !trace.SpanContextFromContext(ctx).IsValid() {
		return
	}
	propagation.TraceContext{}.Inject(ctx, propagation.HeaderCarrier(h))
}
