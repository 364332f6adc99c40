package execute

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/effects"
)

// effectTool is a subprocess tool that appends a line to a file each time
// it runs, then prints size bytes (and the secret it was given).
func effectTool(t *testing.T) (schemas.Manifest, func() int) {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, "effects.log")
	script := filepath.Join(dir, "effect.sh")
	body := fmt.Sprintf(`#!/bin/sh
echo "$1" >> %q
printf 'token=%%s ' "$2"
head -c "$3" /dev/zero | tr '\0' x
`, log)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	m := tool("t/effect", `{"type":"object","required":["label"],"properties":{
		"label":{"type":"string"},"token":{"type":"string","writeOnly":true,"default":"none"},"size":{"type":"integer","default":0}}}`,
		script, "{label}", "{token}", "{size}")
	runs := func() int {
		b, _ := os.ReadFile(log)
		return strings.Count(string(b), "\n")
	}
	return m, runs
}

type onceEnv struct {
	env  *pipelinetest.Env
	st   pipeline.Stage
	runs func() int
}

func newOnceEnv(t *testing.T, withOutputs bool, opts ...effects.Option) onceEnv {
	t.Helper()
	env := pipelinetest.Start(t)
	ctx := ctxFor(t)
	x, err := effects.OpenExecutions(ctx, env.JS, append([]effects.Option{effects.WithWorkerID("stage")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	sopts := []StageOption{WithExecutions(x)}
	if withOutputs {
		o, err := effects.OpenOutputs(ctx, env.JS)
		if err != nil {
			t.Fatal(err)
		}
		sopts = append(sopts, WithOutputs(o))
	}
	m, runs := effectTool(t)
	flakyTool, _ := flaky(t, 1000, ExitTempFail)
	e := newExecutor(t, []schemas.Manifest{m, flakyTool}, WithRetryBudget(0))
	return onceEnv{env: env, st: Stage(e, sopts...), runs: runs}
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func effectCall(intent string, params map[string]any) schemas.ToolCall {
	return schemas.ToolCall{V: schemas.Version, IntentID: intent, SessionID: "s1", MessageID: "m1",
		MetaTool: schemas.MetaExecute, ToolID: "t/effect", Parameters: params}
}

func (o onceEnv) handle(t *testing.T, c schemas.ToolCall) ([]pipeline.Out, error) {
	t.Helper()
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return o.st.Handler(ctxFor(t), &pipeline.Msg{Subject: "pipe.execute." + c.SessionID, Data: data, NumDelivered: 1})
}

func decodeOuts(t *testing.T, outs []pipeline.Out) (schemas.Result, schemas.AuditRecord) {
	t.Helper()
	if len(outs) != 2 {
		t.Fatalf("%d outputs, want result and audit", len(outs))
	}
	var r schemas.Result
	var a schemas.AuditRecord
	if err := json.Unmarshal(outs[0].Data, &r); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(outs[1].Data, &a); err != nil {
		t.Fatal(err)
	}
	return r, a
}

// A call delivered again after it finished is answered from its record:
// the tool does not run again and the same messages are published.
func TestStageRedeliveredCallRepublishesStoredResult(t *testing.T) {
	o := newOnceEnv(t, false)
	c := effectCall("m1.0", map[string]any{"label": "a"})
	first, err := o.handle(t, c)
	if err != nil {
		t.Fatal(err)
	}
	second, err := o.handle(t, c)
	if err != nil {
		t.Fatal(err)
	}
	if n := o.runs(); n != 1 {
		t.Fatalf("tool ran %d times for one call delivered twice", n)
	}
	if len(first) != len(second) {
		t.Fatalf("%d then %d outputs", len(first), len(second))
	}
	for i := range first {
		if first[i].ID != second[i].ID || first[i].Subject != second[i].Subject || string(first[i].Data) != string(second[i].Data) {
			t.Errorf("output %d differs on redelivery:\n%s %s\n%s %s", i, first[i].ID, first[i].Data, second[i].ID, second[i].Data)
		}
	}
	if r, _ := decodeOuts(t, first); r.Status != schemas.StatusExecuted {
		t.Errorf("status %s: %s", r.Status, r.Message)
	}
	// Another intent of the same message is another call.
	if _, err := o.handle(t, effectCall("m1.1", map[string]any{"label": "b"})); err != nil {
		t.Fatal(err)
	}
	if n := o.runs(); n != 2 {
		t.Fatalf("tool ran %d times for two calls", n)
	}
}

// A call another live worker is running is not run again: the delivery
// is given back with a delay.
func TestStageBusyCallIsNotRun(t *testing.T) {
	o := newOnceEnv(t, false, effects.WithBusyWait(200*time.Millisecond))
	other, err := effects.OpenExecutions(ctxFor(t), o.env.JS, effects.WithWorkerID("other"), effects.WithLease(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	c := effectCall("m1.0", map[string]any{"label": "a"})
	held, err := other.Acquire(ctxFor(t), effects.ID{SessionID: c.SessionID, IntentID: c.IntentID})
	if err != nil || held.Lease == nil {
		t.Fatalf("%+v %v", held, err)
	}
	held.Lease.Keep(ctxFor(t))
	outs, err := o.handle(t, c)
	if err == nil || pipeline.IsPermanent(err) || len(outs) != 0 {
		t.Fatalf("busy call: %d outputs, err %v; want a retry", len(outs), err)
	}
	if n := o.runs(); n != 0 {
		t.Fatalf("tool ran %d times while another worker held the call", n)
	}
	if err := held.Lease.Finish(ctxFor(t), []pipeline.Out{{Subject: "result.s1", ID: "m1.0:result", Data: []byte(`{"from":"other"}`)}}); err != nil {
		t.Fatal(err)
	}
	outs, err = o.handle(t, c)
	if err != nil || len(outs) != 1 || string(outs[0].Data) != `{"from":"other"}` {
		t.Fatalf("after the other worker finished: %v %v", outs, err)
	}
	if n := o.runs(); n != 0 {
		t.Fatalf("tool ran %d times", n)
	}
}

// A call whose worker died mid-run is taken over once its lease lapses.
func TestStageTakesOverLapsedCall(t *testing.T) {
	o := newOnceEnv(t, false, effects.WithBusyWait(10*time.Second))
	dead, err := effects.OpenExecutions(ctxFor(t), o.env.JS, effects.WithWorkerID("dead"), effects.WithLease(300*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	c := effectCall("m1.0", map[string]any{"label": "a"})
	if got, err := dead.Acquire(ctxFor(t), effects.ID{SessionID: c.SessionID, IntentID: c.IntentID}); err != nil || got.Lease == nil {
		t.Fatalf("%+v %v", got, err)
	}
	outs, err := o.handle(t, c)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := decodeOuts(t, outs); r.Status != schemas.StatusExecuted || o.runs() != 1 {
		t.Fatalf("takeover: status %s, %d runs", r.Status, o.runs())
	}
	rec, _, err := dead.Get(ctxFor(t), effects.ID{SessionID: c.SessionID, IntentID: c.IntentID})
	if err != nil || rec.State != effects.StateDone || rec.Claims != 2 {
		t.Fatalf("record %+v %v", rec, err)
	}
}

// A transient failure gives the claim back, so the next delivery runs at once.
func TestStageTransientFailureReleasesClaim(t *testing.T) {
	o := newOnceEnv(t, false)
	c := effectCall("m1.0", nil)
	c.ToolID = "t/flaky"
	if _, err := o.handle(t, c); err == nil || pipeline.IsPermanent(err) {
		t.Fatalf("err %v, want transient", err)
	}
	kv, err := o.env.JS.KeyValue(ctxFor(t), effects.ExecutionsBucket)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Get(ctxFor(t), effects.ID{SessionID: c.SessionID, IntentID: c.IntentID}.Key()); !errors.Is(err, jetstream.ErrKeyNotFound) {
		t.Fatalf("claim after a transient failure: %v, want it released", err)
	}
}

func TestStageLargeOutputs(t *testing.T) {
	tests := []struct {
		name       string
		store      bool
		size       int
		wantRef    bool
		wantTrunc  bool
		contentLen int
	}{
		{"small output inline", true, 1000, false, false, 1000 + len("token=none ")},
		{"large output stored", true, 200 << 10, true, false, PreviewBytes},
		{"large output without a store is cut", false, 200 << 10, false, true, InlineOutputBytes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := newOnceEnv(t, tt.store)
			outs, err := o.handle(t, effectCall("m1.0", map[string]any{"label": "a", "size": tt.size}))
			if err != nil {
				t.Fatal(err)
			}
			r, _ := decodeOuts(t, outs)
			if r.Output == nil {
				t.Fatalf("no output: %s", r.Message)
			}
			content, _ := r.Output.Content.(string)
			if (r.Output.Ref != nil) != tt.wantRef || r.Output.Truncated != tt.wantTrunc || len(content) != tt.contentLen {
				t.Fatalf("ref %+v truncated %v content %d bytes; want ref %v truncated %v %d bytes",
					r.Output.Ref, r.Output.Truncated, len(content), tt.wantRef, tt.wantTrunc, tt.contentLen)
			}
			if _, err := schemas.Decode[schemas.Result](schemas.KindResult, outs[0].Data); err != nil {
				t.Errorf("result does not meet its contract: %v", err)
			}
			if !tt.wantRef {
				return
			}
			store, err := effects.OpenOutputs(ctxFor(t), o.env.JS)
			if err != nil {
				t.Fatal(err)
			}
			full, err := store.Get(ctxFor(t), *r.Output.Ref)
			if err != nil {
				t.Fatal(err)
			}
			want := "token=none " + strings.Repeat("x", tt.size)
			if string(full) != want || r.Output.Ref.Size != int64(len(want)) || !strings.HasPrefix(want, content) {
				t.Errorf("stored %d bytes (ref says %d), want %d", len(full), r.Output.Ref.Size, len(want))
			}
		})
	}
}

// Secret parameters reach the tool but not the audit record.
func TestStageRedactsSecretsFromAudit(t *testing.T) {
	o := newOnceEnv(t, false)
	outs, err := o.handle(t, effectCall("m1.0", map[string]any{"label": "a", "token": "s3cr3t-value"}))
	if err != nil {
		t.Fatal(err)
	}
	r, a := decodeOuts(t, outs)
	if !strings.Contains(r.Output.Content.(string), "token=s3cr3t-value") {
		t.Errorf("the tool did not get the secret: %q", r.Output.Content)
	}
	if a.Parameters["token"] != "***" || a.Parameters["label"] != "a" {
		t.Errorf("audit parameters %v", a.Parameters)
	}
	if strings.Contains(string(outs[1].Data), "s3cr3t-value") {
		t.Errorf("secret in the audit record: %s", outs[1].Data)
	}
}

// A worker that stored a call's result and died before publishing it
// (crash window 4): the redelivery, through a real consumer, publishes the
// stored result and does not run the tool.
func TestStageRunnerRepublishesStoredResult(t *testing.T) {
	o := newOnceEnv(t, false)
	c := effectCall("m1.0", map[string]any{"label": "a"})
	died, err := effects.OpenExecutions(ctxFor(t), o.env.JS, effects.WithWorkerID("died"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := died.Acquire(ctxFor(t), effects.ID{SessionID: c.SessionID, IntentID: c.IntentID})
	if err != nil || got.Lease == nil {
		t.Fatalf("%+v %v", got, err)
	}
	stored := bind.Result(schemas.Result{SessionID: c.SessionID, MessageID: c.MessageID, IntentID: c.IntentID, ToolID: c.ToolID,
		Status: schemas.StatusExecuted, Stage: bind.StageExecute, Output: &schemas.ToolOutput{Content: "stored before the crash"}})
	if err := got.Lease.Finish(ctxFor(t), stored); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(c)
	if _, err := o.env.JS.Publish(ctxFor(t), "pipe.execute.s1", data); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- pipeline.Run(ctx, o.env.JS, o.st, pipeline.WithFetchWait(200*time.Millisecond)) }()
	defer func() { cancel(); <-done }()
	msgs := o.env.Collect(t, pipeline.StreamResult, "result.s1", 1, 10*time.Second)
	if len(msgs) != 1 {
		t.Fatalf("%d results", len(msgs))
	}
	r, err := schemas.Decode[schemas.Result](schemas.KindResult, msgs[0].Data())
	if err != nil || r.Output == nil || r.Output.Content != "stored before the crash" {
		t.Fatalf("result %s (%v), want the stored one", msgs[0].Data(), err)
	}
	if n := o.runs(); n != 0 {
		t.Fatalf("tool ran %d times for a call whose result was stored", n)
	}
}
