package execute

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/micro"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
)

// calcService is a real NATS micro service on env's server.
func calcService(t *testing.T, env *pipelinetest.Env) {
	t.Helper()
	svc, err := micro.AddService(env.NC, micro.Config{Name: "calc", Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Stop() })
	g := svc.AddGroup("calc")
	add := func(name string, h micro.HandlerFunc, opts ...micro.EndpointOpt) {
		if err := g.AddEndpoint(name, h, opts...); err != nil {
			t.Fatal(err)
		}
	}
	add("add", func(r micro.Request) {
		var in struct{ A, B float64 }
		if err := json.Unmarshal(r.Data(), &in); err != nil {
			_ = r.Error("400", "request is not JSON: "+err.Error(), nil)
			return
		}
		_ = r.RespondJSON(map[string]any{"sum": in.A + in.B})
	})
	add("fail", func(r micro.Request) { _ = r.Error("422", "b must not be zero", []byte(`{"field":"b"}`)) })
	add("slow", func(r micro.Request) { time.Sleep(2 * time.Second); _ = r.Respond([]byte("late")) })
	echo := func(r micro.Request) {
		_ = r.RespondJSON(map[string]any{"key": r.Headers().Get(IdempotencyHeader), "body": string(r.Data()), "subject": r.Subject()})
	}
	if err := svc.AddEndpoint("echo", micro.HandlerFunc(echo), micro.WithEndpointSubject("calc.user.*")); err != nil {
		t.Fatal(err)
	}
	add("big", func(r micro.Request) { _ = r.Respond([]byte(strings.Repeat("x", 10_000))) })
}

func natsTool(id, subject, params string, x schemas.Executor) schemas.Manifest {
	x.Kind, x.Subject = schemas.ExecNATS, subject
	m := schemas.Manifest{ID: id, Name: id, Description: "nats tool " + id, Executor: &x}
	if params != "" {
		m.Parameters = json.RawMessage(params)
	}
	return m
}

func TestNATSExecutor(t *testing.T) {
	env := pipelinetest.Start(t)
	calcService(t, env)
	ab := `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number","default":2}}}`
	tools := []schemas.Manifest{
		natsTool("calc/add", "calc.add", ab, schemas.Executor{}),
		natsTool("calc/fail", "calc.fail", ab, schemas.Executor{}),
		natsTool("calc/slow", "calc.slow", "", schemas.Executor{Timeout: schemas.Duration(200 * time.Millisecond)}),
		natsTool("calc/echo", "calc.user.{name}", `{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}`, schemas.Executor{}),
		natsTool("calc/big", "calc.big", "", schemas.Executor{MaxOutputBytes: 100}),
		natsTool("calc/gone", "calc.nobody_home", "", schemas.Executor{}),
	}
	e := newExecutor(t, tools, WithNATS(env.NC), WithRetryBudget(0))

	t.Run("request and JSON reply", func(t *testing.T) {
		out, err := run(t, e, call("calc/add", map[string]any{"a": 3}))
		if err != nil {
			t.Fatal(err)
		}
		if got := mustJSON(out.Content); got != `{"sum":5}` {
			t.Fatalf("content %s (the default b=2 sent)", got)
		}
	})
	t.Run("service error is a permanent tool error", func(t *testing.T) {
		out, err := run(t, e, call("calc/fail", map[string]any{"a": 1}))
		var te *ToolError
		if !errors.As(err, &te) || IsTransient(err) {
			t.Fatalf("err = %v, want a permanent *ToolError", err)
		}
		if !strings.Contains(err.Error(), "answered error 422: b must not be zero") || mustJSON(out.Content) != `{"field":"b"}` {
			t.Fatalf("err %q, content %v", err, out.Content)
		}
		if errorCode(err) != "tool_failed" {
			t.Errorf("code %s", errorCode(err))
		}
	})
	t.Run("timeout is transient", func(t *testing.T) {
		start := time.Now()
		_, err := run(t, e, call("calc/slow", nil))
		if !IsTransient(err) || !strings.Contains(err.Error(), "no reply on calc.slow within 200ms") {
			t.Fatalf("err = %v", err)
		}
		if time.Since(start) > time.Second {
			t.Fatal("the timeout was not kept")
		}
	})
	t.Run("no responders is transient", func(t *testing.T) {
		_, err := run(t, e, call("calc/gone", nil))
		if !IsTransient(err) || !strings.Contains(err.Error(), "no service answers on calc.nobody_home") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("subject template and idempotency key", func(t *testing.T) {
		out, err := run(t, e, call("calc/echo", map[string]any{"name": "bob"}))
		if err != nil {
			t.Fatal(err)
		}
		got := out.Content.(map[string]any)
		if got["subject"] != "calc.user.bob" || got["key"] == "" || got["body"] != `{"name":"bob"}` {
			t.Fatalf("service saw %v", got)
		}
	})
	t.Run("a parameter cannot leave its subject token", func(t *testing.T) {
		for _, name := range []string{"bob.admin", "*", ">", "a b", ""} {
			_, err := run(t, e, call("calc/echo", map[string]any{"name": name}))
			if !errors.Is(err, ErrInvalidParameters) {
				t.Errorf("name %q: err = %v", name, err)
			}
		}
	})
	t.Run("size cap", func(t *testing.T) {
		out, err := run(t, e, call("calc/big", nil))
		if err != nil || !out.Truncated || len(out.Content.(string)) != 100 {
			t.Fatalf("out %v err %v", out, err)
		}
	})
	t.Run("no connection", func(t *testing.T) {
		e := newExecutor(t, tools)
		_, err := run(t, e, call("calc/add", nil))
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "no NATS connection") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestNATSSubjectNeedsItsParameters(t *testing.T) {
	m := natsTool("calc/opt", "calc.user.{name}", `{"type":"object","properties":{"name":{"type":"string"}}}`, schemas.Executor{})
	e := newExecutor(t, []schemas.Manifest{m}, WithNATS(pipelinetest.Start(t).NC), WithRetryBudget(0))
	_, err := run(t, e, call("calc/opt", nil))
	if !errors.Is(err, ErrInvalidParameters) || !strings.Contains(err.Error(), `subject "calc.user.{name}" needs every parameter it names`) {
		t.Fatalf("err = %v", err)
	}
}
