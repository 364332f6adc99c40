package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// traceFlags turn on OpenTelemetry traces: off unless --otlp-endpoint is
// given, and then exported over OTLP/HTTP (protobuf) to that collector.
type traceFlags struct {
	endpoint string
}

func (f *traceFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&f.endpoint, "otlp-endpoint", "", "export OpenTelemetry traces (a span per stage and per tool call) over OTLP/HTTP to this collector URL, e.g. http://127.0.0.1:4318 (path /v1/traces when none is given; OTEL_EXPORTER_OTLP_HEADERS adds headers); empty: no traces are exported")
}

// otlpTarget splits the endpoint URL into what the exporter takes.
func otlpTarget(endpoint string) (host, path string, insecure bool, err error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", "", false, fmt.Errorf("--otlp-endpoint %q: want an http:// or https:// URL of an OTLP/HTTP collector, e.g. http://127.0.0.1:4318", endpoint)
	}
	path = u.Path
	if path == "" || path == "/" {
		path = "/v1/traces"
	}
	return u.Host, path, u.Scheme == "http", nil
}

// check reports a malformed endpoint before anything starts.
func (f *traceFlags) check() error {
	if f.endpoint == "" {
		return nil
	}
	_, _, _, err := otlpTarget(f.endpoint)
	return err
}

// provider is the tracer provider the stages use, and how to flush and
// stop it. Without an endpoint it is the no-op provider: no exporter, no
// span recorded, only a trace context that arrives with a message passed on.
func (f *traceFlags) provider(ctx context.Context, stages []string, log *slog.Logger) (trace.TracerProvider, func(), error) {
	if f.endpoint == "" {
		return noop.NewTracerProvider(), func() {}, nil
	}
	host, path, insecure, err := otlpTarget(f.endpoint)
	if err != nil {
		return nil, nil, err
	}
	opts := []otlptracehttp.Option{otlptracehttp.WithEndpoint(host), otlptracehttp.WithURLPath(path), otlptracehttp.WithCompression(otlptracehttp.GzipCompression)}
	if insecure {
		opts = append(opts, otlptracehttp.WithInsecure())
	}
	// New does not connect: a collector that is down costs dropped spans
	// (logged by the SDK), never a stage.
	exp, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("--otlp-endpoint %s: %w", f.endpoint, err)
	}
	hostname, _ := os.Hostname()
	// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, read last, override.
	res, err := resource.New(ctx,
		resource.WithAttributes(
			attribute.String("service.name", "toolyard"),
			attribute.String("service.instance.id", hostname+":"+strconv.Itoa(os.Getpid())),
			attribute.String("toolyard.stages", strings.Join(stages, ",")),
		),
		resource.WithTelemetrySDK(), resource.WithFromEnv())
	if err != nil {
		return nil, nil, fmt.Errorf("trace resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	log.Info("exporting traces", "otlp_endpoint", f.endpoint, "path", path)
	return tp, func() {
		// Spans still batched are sent before the process ends.
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := tp.Shutdown(sctx); err != nil {
			log.Warn("traces not all exported at shutdown", "error", err)
		}
	}, nil
}
