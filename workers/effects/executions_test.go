package effects_test

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"sync"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/workers/effects"
)

func open(t *testing.T, env *pipelinetest.Env, worker string, opts ...effects.Option) *effects.Executions {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	x, err := effects.OpenExecutions(ctx, env.JS, append([]effects.Option{effects.WithWorkerID(worker)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

var call = effects.ID{SessionID: "s1", IntentID: "m1.0", ToolID: "test/record"}

func outs(label string) []pipeline.Out {
	return []pipeline.Out{
		{Subject: "result.s1", ID: "m1.0:result", Data: []byte(`{"status":"executed","label":"` + label + `"}`)},
		{Subject: "audit.execute.s1", ID: "m1.0:execute:audit", Data: []byte(`{"decision":"executed"}`)},
	}
}

// Of many workers claiming one call at once, exactly one holds it.
func TestAcquireOneClaimantWins(t *testing.T) {
	env := pipelinetest.Start(t)
	const n = 8
	var wg sync.WaitGroup
	got := make([]effects.Outcome, n)
	errs := make([]error, n)
	for i := range n {
		x := open(t, env, "w"+string(rune('a'+i)), effects.WithBusyWait(0))
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = x.Acquire(ctxT(t), call)
		}()
	}
	wg.Wait()
	leases, busy := 0, 0
	for i, o := range got {
		if errs[i] != nil {
			t.Fatalf("worker %d: %v", i, errs[i])
		}
		switch {
		case o.Lease != nil:
			leases++
		case o.Busy != nil:
			busy++
		}
	}
	if leases != 1 || busy != n-1 {
		t.Fatalf("%d leases and %d busy of %d claimants; want 1 and %d", leases, busy, n, n-1)
	}
}

// A finished call is not claimed again: the stored messages come back.
func TestAcquireFinishedReturnsStoredOutputs(t *testing.T) {
	env := pipelinetest.Start(t)
	a, b := open(t, env, "a"), open(t, env, "b")
	o, err := a.Acquire(ctxT(t), call)
	if err != nil || o.Lease == nil {
		t.Fatalf("first acquire: %+v %v", o, err)
	}
	if err := o.Lease.Finish(ctxT(t), outs("first")); err != nil {
		t.Fatal(err)
	}
	again, err := b.Acquire(ctxT(t), call)
	if err != nil {
		t.Fatal(err)
	}
	if again.Done == nil {
		t.Fatalf("second acquire of a finished call: %+v, want Done", again)
	}
	want := outs("first")
	gotOuts := again.Done.Outs()
	if len(gotOuts) != len(want) {
		t.Fatalf("stored %d outputs, want %d", len(gotOuts), len(want))
	}
	for i := range want {
		if gotOuts[i].Subject != want[i].Subject || gotOuts[i].ID != want[i].ID || !jsonEqual(gotOuts[i].Data, want[i].Data) {
			t.Errorf("output %d: got %s %s %s, want %s %s %s", i, gotOuts[i].Subject, gotOuts[i].ID, gotOuts[i].Data, want[i].Subject, want[i].ID, want[i].Data)
		}
	}
	if again.Done.State != effects.StateDone || again.Done.Claims != 1 || again.Done.FinishedAt.IsZero() {
		t.Errorf("record %+v", *again.Done)
	}
}

// A claim whose owner stopped renewing lapses; the next worker waits for
// that, takes it over, and the old owner can no longer store a result.
func TestAcquireTakesOverLapsedLease(t *testing.T) {
	env := pipelinetest.Start(t)
	const lease = 400 * time.Millisecond
	dead := open(t, env, "dead", effects.WithLease(lease))
	next := open(t, env, "next", effects.WithLease(lease), effects.WithBusyWait(10*time.Second))
	first, err := dead.Acquire(ctxT(t), call)
	if err != nil || first.Lease == nil {
		t.Fatalf("first acquire: %+v %v", first, err)
	}
	// No Keep: the owner "died" right after claiming.
	before := testutil.ToFloat64(effects.Takeovers.WithLabelValues(call.ToolID))
	start := time.Now()
	o, err := next.Acquire(ctxT(t), call)
	if err != nil {
		t.Fatal(err)
	}
	if o.Lease == nil {
		t.Fatalf("acquire after the lease lapsed: %+v, want a lease", o)
	}
	if waited := time.Since(start); waited < lease/2 {
		t.Errorf("took over after %s, before the %s lease could lapse", waited, lease)
	}
	if !o.Lease.TakenOver() || o.Lease.Record().Claims != 2 {
		t.Errorf("takeover record: %+v", o.Lease.Record())
	}
	if got := testutil.ToFloat64(effects.Takeovers.WithLabelValues(call.ToolID)) - before; got != 1 {
		t.Errorf("toolyard_execution_takeovers_total went up by %v, want 1", got)
	}
	if err := first.Lease.Finish(ctxT(t), outs("late")); !errors.Is(err, effects.ErrLeaseLost) {
		t.Errorf("the dead owner's Finish after the takeover: %v, want ErrLeaseLost", err)
	}
	if err := o.Lease.Finish(ctxT(t), outs("new")); err != nil {
		t.Fatal(err)
	}
	rec, _, err := next.Get(ctxT(t), call)
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(rec.Outputs[0].Data, outs("new")[0].Data) {
		t.Errorf("stored %s, want the new owner's result", rec.Outputs[0].Data)
	}
}

// While its owner renews it, a claim outlives its lease many times over,
// and others see it busy; once finished they see it done.
func TestHeartbeatKeepsLease(t *testing.T) {
	env := pipelinetest.Start(t)
	const lease = 300 * time.Millisecond
	owner := open(t, env, "owner", effects.WithLease(lease))
	other := open(t, env, "other", effects.WithLease(lease), effects.WithBusyWait(0))
	o, err := owner.Acquire(ctxT(t), call)
	if err != nil || o.Lease == nil {
		t.Fatalf("acquire: %+v %v", o, err)
	}
	run := o.Lease.Keep(ctxT(t))
	time.Sleep(4 * lease)
	if run.Err() != nil {
		t.Fatalf("the run was cancelled while its lease was renewed: %v", context.Cause(run))
	}
	busy, err := other.Acquire(ctxT(t), call)
	if err != nil || busy.Busy == nil {
		t.Fatalf("acquire of a renewed claim: %+v %v, want Busy", busy, err)
	}
	if busy.Busy.LeaseUntil.Before(time.Now()) {
		t.Errorf("busy record's lease %s is in the past", busy.Busy.LeaseUntil)
	}
	if err := o.Lease.Finish(ctxT(t), outs("x")); err != nil {
		t.Fatal(err)
	}
	done, err := other.Acquire(ctxT(t), call)
	if err != nil || done.Done == nil {
		t.Fatalf("acquire after finish: %+v %v, want Done", done, err)
	}
}

// A delivery waiting on a live claim gets the result as soon as the owner
// stores it, long before the wait would end.
func TestBusyWaitEndsWithFinish(t *testing.T) {
	env := pipelinetest.Start(t)
	owner := open(t, env, "owner", effects.WithLease(5*time.Second))
	waiter := open(t, env, "waiter", effects.WithBusyWait(30*time.Second))
	o, err := owner.Acquire(ctxT(t), call)
	if err != nil || o.Lease == nil {
		t.Fatalf("acquire: %+v %v", o, err)
	}
	o.Lease.Keep(ctxT(t))
	go func() {
		time.Sleep(300 * time.Millisecond)
		if err := o.Lease.Finish(context.Background(), outs("done")); err != nil {
			t.Error(err)
		}
	}()
	start := time.Now()
	w, err := waiter.Acquire(ctxT(t), call)
	if err != nil || w.Done == nil {
		t.Fatalf("waiting acquire: %+v %v, want Done", w, err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("waited %s for a result stored after 300ms", d)
	}
}

// A released call is claimed again at once.
func TestReleaseLetsNextClaim(t *testing.T) {
	env := pipelinetest.Start(t)
	x := open(t, env, "a", effects.WithLease(time.Minute), effects.WithBusyWait(0))
	o, err := x.Acquire(ctxT(t), call)
	if err != nil || o.Lease == nil {
		t.Fatalf("acquire: %+v %v", o, err)
	}
	o.Lease.Keep(ctxT(t))
	if err := o.Lease.Release(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	again, err := x.Acquire(ctxT(t), call)
	if err != nil || again.Lease == nil {
		t.Fatalf("acquire after release: %+v %v, want a lease", again, err)
	}
	if again.Lease.TakenOver() {
		t.Errorf("a released call counts as taken over: %+v", again.Lease.Record())
	}
}

// An owner whose claim is overwritten behind its back stops its run.
func TestLeaseLostCancelsRun(t *testing.T) {
	env := pipelinetest.Start(t)
	const lease = 300 * time.Millisecond
	x := open(t, env, "a", effects.WithLease(lease))
	o, err := x.Acquire(ctxT(t), call)
	if err != nil || o.Lease == nil {
		t.Fatalf("acquire: %+v %v", o, err)
	}
	run := o.Lease.Keep(ctxT(t))
	kv, err := env.JS.KeyValue(ctxT(t), effects.ExecutionsBucket)
	if err != nil {
		t.Fatal(err)
	}
	// Another worker's takeover, as Acquire would write it.
	stolen, _ := json.Marshal(effects.Record{SessionID: call.SessionID, IntentID: call.IntentID, State: effects.StateRunning,
		Owner: "thief", LeaseUntil: time.Now().Add(time.Minute), Claims: 2})
	if _, err := kv.Put(ctxT(t), call.Key(), stolen); err != nil {
		t.Fatal(err)
	}
	select {
	case <-run.Done():
		if !errors.Is(context.Cause(run), effects.ErrLeaseLost) {
			t.Errorf("run cancelled with %v, want ErrLeaseLost", context.Cause(run))
		}
	case <-time.After(5 * lease):
		t.Fatal("the run went on after its claim was taken over")
	}
	if err := o.Lease.Finish(ctxT(t), outs("x")); !errors.Is(err, effects.ErrLeaseLost) {
		t.Errorf("Finish after losing the lease: %v, want ErrLeaseLost", err)
	}
}

// Records expire with the bucket's TTL.
func TestExecutionsBucketTTL(t *testing.T) {
	env := pipelinetest.Start(t)
	open(t, env, "a", effects.WithTTL(90*time.Minute))
	kv, err := env.JS.KeyValue(ctxT(t), effects.ExecutionsBucket)
	if err != nil {
		t.Fatal(err)
	}
	st, err := kv.Status(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if st.TTL() != 90*time.Minute {
		t.Errorf("bucket TTL %s, want 90m", st.TTL())
	}
	if st.History() != 1 {
		t.Errorf("bucket history %d, want 1", st.History())
	}
}

func TestIDKeys(t *testing.T) {
	tests := []struct {
		name string
		a, b effects.ID
		same bool
	}{
		{"same call", effects.ID{SessionID: "s", IntentID: "m.0"}, effects.ID{SessionID: "s", IntentID: "m.0", ToolID: "other"}, true},
		{"same intent id in two sessions", effects.ID{SessionID: "s1", IntentID: "m.0"}, effects.ID{SessionID: "s2", IntentID: "m.0"}, false},
		{"intents of one message", effects.ID{SessionID: "s", IntentID: "m.0"}, effects.ID{SessionID: "s", IntentID: "m.1"}, false},
		{"session/intent boundary", effects.ID{SessionID: "a", IntentID: "b.c"}, effects.ID{SessionID: "a.b", IntentID: "c"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.a.Key() == tt.b.Key(); got != tt.same {
				t.Errorf("keys %q and %q: same=%v, want %v", tt.a.Key(), tt.b.Key(), got, tt.same)
			}
			if got := tt.a.IdempotencyKey() == tt.b.IdempotencyKey(); got != tt.same {
				t.Errorf("idempotency keys %q and %q: same=%v, want %v", tt.a.IdempotencyKey(), tt.b.IdempotencyKey(), got, tt.same)
			}
		})
	}
}

// Intent ids may hold any printable character; every one makes a usable key.
func TestOddIntentIDsMakeUsableKeys(t *testing.T) {
	env := pipelinetest.Start(t)
	x := open(t, env, "a")
	for _, intent := range []string{"turn 7/x*>.0", "ünïcødé.3", "a..b", "$JS.API.0", "x"} {
		o, err := x.Acquire(ctxT(t), effects.ID{SessionID: "s", IntentID: intent})
		if err != nil || o.Lease == nil {
			t.Errorf("intent %q: %+v %v", intent, o, err)
		}
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

// A worker cut off from NATS cannot renew its claim; it stops the run
// before the claim runs out, when another worker may take over.
func TestLeaseUnrenewableStopsRunAtExpiry(t *testing.T) {
	env := pipelinetest.Start(t)
	const lease = 600 * time.Millisecond
	x := open(t, env, "cut-off", effects.WithLease(lease))
	o, err := x.Acquire(ctxT(t), call)
	if err != nil || o.Lease == nil {
		t.Fatalf("acquire: %+v %v", o, err)
	}
	until := o.Lease.Record().LeaseUntil
	run := o.Lease.Keep(ctxT(t))
	env.Server.Shutdown()
	select {
	case <-run.Done():
		if !errors.Is(context.Cause(run), effects.ErrLeaseLost) {
			t.Errorf("run cancelled with %v, want ErrLeaseLost", context.Cause(run))
		}
		if !time.Now().Before(until) {
			t.Errorf("run stopped at %s, after its claim ran out at %s", time.Now().Format(time.StampMilli), until.Format(time.StampMilli))
		}
	case <-time.After(10 * lease):
		t.Fatal("the run went on long after its claim ran out")
	}
}
