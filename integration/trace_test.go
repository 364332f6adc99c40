package integration

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// otlpSpan is what the test keeps of an exported span.
type otlpSpan struct {
	name, traceID, spanID, parentID string
}

// otlpReceiver is an in-memory OTLP/HTTP trace collector: it decodes the
// protobuf export requests the toolyard process sends and keeps the spans.
type otlpReceiver struct {
	mu    sync.Mutex
	spans []otlpSpan
	bad   []string
}

func (o *otlpReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err == nil && r.Header.Get("Content-Encoding") == "gzip" {
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(bytes.NewReader(body)); err == nil {
			body, err = io.ReadAll(zr)
		}
	}
	var req coltracepb.ExportTraceServiceRequest
	if err == nil {
		err = proto.Unmarshal(body, &req)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" || err != nil {
		o.bad = append(o.bad, fmt.Sprintf("%s %s (%s): %v", r.Method, r.URL.Path, r.Header.Get("Content-Type"), err))
		http.Error(w, "bad export request", http.StatusBadRequest)
		return
	}
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				o.spans = append(o.spans, otlpSpan{name: s.Name, traceID: hex.EncodeToString(s.TraceId),
					spanID: hex.EncodeToString(s.SpanId), parentID: hex.EncodeToString(s.ParentSpanId)})
			}
		}
	}
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

// trace returns the spans of one trace by name, once every name is there.
func (o *otlpReceiver) trace(t *testing.T, traceID string, names []string, wait time.Duration) map[string]otlpSpan {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		o.mu.Lock()
		got := map[string]otlpSpan{}
		for _, s := range o.spans {
			if s.traceID == traceID {
				got[s.name] = s
			}
		}
		bad, all := o.bad, len(o.spans)
		o.mu.Unlock()
		if len(bad) > 0 {
			t.Fatalf("export requests the receiver could not read: %v", bad)
		}
		missing := 0
		for _, n := range names {
			if _, ok := got[n]; !ok {
				missing++
			}
		}
		if missing == 0 {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("trace %s: spans %v after %s, want %v (%d spans received in all)", traceID, keys(got), wait, names, all)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestTracePropagatesAcrossStages publishes one agent output with one
// intent to a 'toolyard up --otlp-endpoint' and reads the spans it exports
// to an in-memory OTLP receiver: one trace holds a span per stage, parse →
// discover → route → resolve → execute, each the child of the one before,
// and the tool call's span under execute; the result and the audit record
// carry its id. An output published with a W3C traceparent continues the
// agent's own trace.
func TestTracePropagatesAcrossStages(t *testing.T) {
	recv := &otlpReceiver{}
	collector := httptest.NewServer(recv)
	defer collector.Close()
	registryFile, _ := testRegistry(t)
	// Export each batch at once rather than after the SDK's 5 s.
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "100")
	up, url := startUp(t, "",
		"--registry", registryFile, "--otlp-endpoint", collector.URL)
	up.WaitOutput(t, "exporting traces", 5*time.Second)
	js := connectJS(t, url)

	const session = "traced"
	publishOutput(t, js, schemas.AgentOutput{SessionID: session, MessageID: "m1", Text: "Noting it. [TOOL: test/record label=traced]"})
	rs := results(t, js, session, 30*time.Second, countAnswered(1))
	var executed, receipt *schemas.Result
	for i := range rs {
		switch rs[i].Status {
		case schemas.StatusExecuted:
			executed = &rs[i]
		case schemas.StatusAccepted:
			receipt = &rs[i]
		}
	}
	if executed == nil || receipt == nil {
		t.Fatalf("want a receipt and an executed result, got %+v", rs)
	}
	traceID := executed.TraceID
	if len(traceID) != 32 || traceID == "00000000000000000000000000000000" {
		t.Fatalf("result trace_id %q: want 32 hex digits", traceID)
	}
	if receipt.TraceID != traceID {
		t.Errorf("receipt trace_id %q, result %q: one output, one trace", receipt.TraceID, traceID)
	}

	audits := collectJSON[schemas.AuditRecord](t, js, schemas.AuditSubject(bind.StageExecute, session), 1)
	if len(audits) != 1 || audits[0].TraceID != traceID {
		t.Errorf("execute audit records %+v: want one with trace_id %s", audits, traceID)
	}

	stages := []string{bind.StageParse, bind.StageDiscover, bind.StageRoute, bind.StageResolve, bind.StageExecute}
	tool := "tool test/record"
	spans := recv.trace(t, traceID, append(stages, tool), 20*time.Second)
	t.Logf("trace %s: %v", traceID, keys(spans))
	if p := spans[bind.StageParse].parentID; p != "" {
		t.Errorf("parse span has parent %s; the output came without a trace, so it starts one", p)
	}
	for i := 1; i < len(stages); i++ {
		if got, want := spans[stages[i]].parentID, spans[stages[i-1]].spanID; got != want {
			t.Errorf("%s span's parent is %s, want the %s span %s", stages[i], got, stages[i-1], want)
		}
	}
	if got, want := spans[tool].parentID, spans[bind.StageExecute].spanID; got != want {
		t.Errorf("tool span's parent is %s, want the execute span %s", got, want)
	}

	// An agent that traces its own work passes its trace context in the
	// headers; the pipeline's spans join that trace.
	const agentTrace = "5c1a0b7e9d2f4c6a8b3e1d0f2a4c6e8b"
	const agentSpan = "1f2e3d4c5b6a7988"
	data, _ := json.Marshal(schemas.AgentOutput{SessionID: session, MessageID: "m2", Text: "[TOOL: test/record label=joined]"})
	msg := &nats.Msg{Subject: schemas.AgentOutputSubject(session), Data: data,
		Header: nats.Header{"traceparent": {"00-" + agentTrace + "-" + agentSpan + "-01"}}}
	if _, err := js.PublishMsg(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	rs = results(t, js, session, 30*time.Second, func(rs []schemas.Result) bool {
		for _, r := range rs {
			if r.MessageID == "m2" && r.Status != schemas.StatusAccepted {
				return true
			}
		}
		return false
	})
	for _, r := range rs {
		if r.MessageID == "m2" && r.TraceID != agentTrace {
			t.Errorf("%s result of m2 has trace_id %q, want the agent's %s", r.Status, r.TraceID, agentTrace)
		}
	}
	joined := recv.trace(t, agentTrace, []string{bind.StageParse, bind.StageExecute, tool}, 20*time.Second)
	if p := joined[bind.StageParse].parentID; p != agentSpan {
		t.Errorf("parse span's parent is %q, want the agent's span %s", p, agentSpan)
	}
}

// collectJSON decodes the first n messages on an AUDIT subject.
func collectJSON[T any](t *testing.T, js jetstream.JetStream, subject string, n int) []T {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cons, err := js.OrderedConsumer(ctx, pipeline.StreamAudit, jetstream.OrderedConsumerConfig{FilterSubjects: []string{subject}})
	if err != nil {
		t.Fatal(err)
	}
	var out []T
	for len(out) < n {
		m, err := cons.Next(jetstream.FetchContext(ctx))
		if err != nil {
			break
		}
		var v T
		if err := json.Unmarshal(m.Data(), &v); err != nil {
			t.Fatalf("%s: %v: %s", subject, err, m.Data())
		}
		out = append(out, v)
	}
	return out
}
