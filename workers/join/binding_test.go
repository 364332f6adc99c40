package join_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/join"
)

// started returns n joiners (n worker processes, as far as the bucket can
// tell) on a real embedded server, their sweepers idle unless asked.
func started(t *testing.T, env *pipelinetest.Env, n int, opts ...join.Option) []*join.Joiner {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	js := make([]*join.Joiner, n)
	for i := range js {
		js[i] = join.New(append([]join.Option{join.WithSweepEvery(time.Hour)}, opts...)...)
		if err := js[i].Start(ctx, env.JS); err != nil {
			t.Fatal(err)
		}
	}
	return js
}

func register(t *testing.T, env *pipelinetest.Env, in schemas.Intent, now time.Time) bool {
	t.Helper()
	store, err := join.OpenStore(t.Context(), env.JS)
	if err != nil {
		t.Fatal(err)
	}
	created, err := store.Register(t.Context(), in, now)
	if err != nil {
		t.Fatal(err)
	}
	return created
}

func discovered(t *testing.T, env *pipelinetest.Env, session string) []schemas.Intent {
	t.Helper()
	// PIPE is a work queue: read it without consuming, message by message.
	time.Sleep(100 * time.Millisecond)
	stream, err := env.JS.Stream(t.Context(), pipeline.StreamPipe)
	if err != nil {
		t.Fatal(err)
	}
	info, err := stream.Info(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var out []schemas.Intent
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq && info.State.Msgs > 0; seq++ {
		m, err := stream.GetMsg(t.Context(), seq)
		if err != nil || m.Subject != bind.PipeSubject(bind.StageDiscover, session) {
			continue
		}
		in, err := schemas.Decode[schemas.Intent](schemas.KindIntent, m.Data)
		if err != nil {
			t.Fatalf("intent sent to discovery breaks its contract: %v", err)
		}
		out = append(out, in)
	}
	return out
}

func resultsOf(t *testing.T, env *pipelinetest.Env, session string) []schemas.Result {
	t.Helper()
	var out []schemas.Result
	for _, m := range env.Collect(t, pipeline.StreamResult, schemas.ResultSubject(session), 10, 500*time.Millisecond) {
		r, err := schemas.Decode[schemas.Result](schemas.KindResult, m.Data())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func withSession(r schemas.Result, id string) schemas.Result {
	r.SessionID, r.MessageID, r.IntentID = "s", "m", id
	return r
}

// Three workers get both inner results, each several times (redeliveries)
// and at once: the outer intent goes to discovery exactly once, with both
// outputs in it, and later deliveries change nothing.
func TestApplyConcurrentAndRedelivered(t *testing.T) {
	env := pipelinetest.Start(t)
	workers := started(t, env, 3)
	ins := parsed(t, "[TOOL: compare [TOOL: kernel version] with [TOOL: uptime]]")
	outer := ins[2]
	if !register(t, env, outer, time.Now()) {
		t.Fatal("not registered")
	}
	res := map[string]schemas.Result{
		ins[0].ID: withSession(executed("Linux 6.1"), ins[0].ID),
		ins[1].ID: withSession(executed("up 3 days"), ins[1].ID),
	}
	var wg sync.WaitGroup
	for round := 0; round < 3; round++ {
		for _, w := range workers {
			for _, r := range res {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := w.Apply(context.Background(), "s", r); err != nil {
						t.Error(err)
					}
				}()
			}
		}
	}
	wg.Wait()
	got := discovered(t, env, "s")
	if len(got) != 1 {
		t.Fatalf("outer intent sent %d times, want once: %+v", len(got), got)
	}
	if got[0].ID != outer.ID || got[0].Text != "compare Linux 6.1 with up 3 days" {
		t.Errorf("sent %s %q", got[0].ID, got[0].Text)
	}
	// A late redelivery, after the record is gone.
	if err := workers[0].Apply(context.Background(), "s", res[ins[0].ID]); err != nil {
		t.Fatal(err)
	}
	// A parse redelivered after the outer intent finished cannot revive it.
	if register(t, env, outer, time.Now()) {
		t.Error("a finished outer intent was registered again")
	}
	if n := len(discovered(t, env, "s")); n != 1 {
		t.Errorf("after redeliveries the outer intent was sent %d times", n)
	}
}

// An inner failure answers the outer intent with an error that names it,
// and the outer intent never reaches discovery.
func TestApplyInnerFailure(t *testing.T) {
	env := pipelinetest.Start(t)
	w := started(t, env, 1)[0]
	ins := parsed(t, "[TOOL: translate [TOOL: fetch the page title of example.com] into French]")
	register(t, env, ins[1], time.Now())
	inner := withSession(schemas.Result{Status: schemas.StatusNotFound, Message: "No tool matches these words: fetch, page."}, ins[0].ID)
	if err := w.Apply(t.Context(), "s", inner); err != nil {
		t.Fatal(err)
	}
	if got := discovered(t, env, "s"); len(got) != 0 {
		t.Fatalf("outer intent sent to discovery despite its failed input: %+v", got)
	}
	rs := resultsOf(t, env, "s")
	if len(rs) != 1 || rs[0].IntentID != ins[1].ID || rs[0].Error == nil || rs[0].Error.Code != join.CodeInputFailed ||
		!strings.Contains(rs[0].Message, "not_found") || !strings.Contains(rs[0].Message, ins[0].ID) {
		t.Fatalf("results %+v, want one input_failed error for %s", rs, ins[1].ID)
	}
}

// An outer intent whose input never comes is answered when the timeout
// passes; an input arriving after that changes nothing.
func TestSweepTimesOut(t *testing.T) {
	env := pipelinetest.Start(t)
	workers := started(t, env, 2, join.WithTimeout(200*time.Millisecond))
	ins := parsed(t, "[TOOL: translate [TOOL: fetch the page title of example.com] into French]")
	register(t, env, ins[1], time.Now())
	if n, err := workers[0].Sweep(t.Context()); err != nil || n != 0 {
		t.Fatalf("swept %d (%v) before the timeout", n, err)
	}
	time.Sleep(250 * time.Millisecond)
	var total int
	for _, w := range workers {
		n, err := w.Sweep(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		total += n
	}
	if total != 1 {
		t.Fatalf("two sweepers finished %d records, want 1", total)
	}
	if err := workers[1].Apply(t.Context(), "s", withSession(executed("Example"), ins[0].ID)); err != nil {
		t.Fatal(err)
	}
	rs := resultsOf(t, env, "s")
	if len(rs) != 1 || rs[0].Error == nil || rs[0].Error.Code != join.CodeInputTimeout || !strings.Contains(rs[0].Message, ins[0].ID) {
		t.Fatalf("results %+v, want one input_timeout error", rs)
	}
	if got := discovered(t, env, "s"); len(got) != 0 {
		t.Fatalf("timed-out intent sent to discovery: %+v", got)
	}
}

// A worker that decided an outer intent and died before publishing leaves
// a done record: the redelivered result, or else the sweeper, publishes it.
func TestDecidedButUnpublished(t *testing.T) {
	for _, via := range []string{"redelivery", "sweeper"} {
		t.Run(via, func(t *testing.T) {
			env := pipelinetest.Start(t)
			w := started(t, env, 1, join.WithSweepEvery(10*time.Millisecond))[0]
			ins := parsed(t, "[TOOL: translate [TOOL: fetch the page title] into French]")
			register(t, env, ins[1], time.Now())
			store, err := join.OpenStore(t.Context(), env.JS)
			if err != nil {
				t.Fatal(err)
			}
			// What the dead worker managed: the input recorded and decided.
			p, rev, found, err := store.Get(t.Context(), "s", ins[1].ID)
			if err != nil || !found {
				t.Fatal(found, err)
			}
			inner := withSession(executed("Example Domain"), ins[0].ID)
			p.Add(ins[0].ID, join.Render(inner, 1000))
			p.Decide(time.Now())
			if _, err := store.Update(t.Context(), p, rev); err != nil {
				t.Fatal(err)
			}
			if via == "redelivery" {
				err = w.Apply(t.Context(), "s", inner)
			} else {
				time.Sleep(20 * time.Millisecond)
				_, err = w.Sweep(t.Context())
			}
			if err != nil {
				t.Fatal(err)
			}
			got := discovered(t, env, "s")
			if len(got) != 1 || got[0].Text != "translate Example Domain into French" {
				t.Fatalf("sent %+v", got)
			}
			if _, _, found, _ := store.Get(t.Context(), "s", ins[1].ID); found {
				t.Error("record not removed after publishing")
			}
		})
	}
}

// Results nothing waits for (receipts, independent intents) are ignored.
func TestApplyIgnoresUnrelated(t *testing.T) {
	env := pipelinetest.Start(t)
	w := started(t, env, 1)[0]
	for _, r := range []schemas.Result{
		{SessionID: "s", MessageID: "m", Status: schemas.StatusAccepted, IntentIDs: []string{"m.0"}},
		withSession(executed("x"), "m.0"),
	} {
		if err := w.Apply(t.Context(), "s", r); err != nil {
			t.Fatal(err)
		}
	}
	if got := discovered(t, env, "s"); len(got) != 0 {
		t.Fatalf("sent %+v", got)
	}
	if n, err := w.Sweep(t.Context()); n != 0 || err != nil {
		t.Fatalf("sweep of an empty bucket: %d, %v", n, err)
	}
}
