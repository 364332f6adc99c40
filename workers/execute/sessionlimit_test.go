package execute

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// A session with as many calls running as WithSessionExecutions allows gets
// a too_many_executions rejection for the next, which does not run; another
// session is not held back, and a finished call frees its slot.
func TestSessionExecutionsLimit(t *testing.T) {
	dir := t.TempDir()
	gate := filepath.Join(dir, "gate")
	runs := filepath.Join(dir, "runs")
	script := filepath.Join(dir, "wait.sh")
	body := "#!/bin/sh\necho \"$1\" >> " + runs + "\nwhile [ ! -e " + gate + " ]; do sleep 0.02; done\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	m := tool("t/wait", `{"type":"object","properties":{"label":{"type":"string"}}}`, script, "{label}")
	st := Stage(newExecutor(t, []schemas.Manifest{m}), WithSessionExecutions(2))
	msg := func(session, id string) *pipeline.Msg {
		c := schemas.ToolCall{V: schemas.Version, IntentID: id, SessionID: session, MessageID: "m", MetaTool: schemas.MetaExecute,
			ToolID: "t/wait", Parameters: map[string]any{"label": id}}
		data, _ := json.Marshal(c)
		return &pipeline.Msg{Subject: bind.PipeSubject(bind.StageExecute, session), Data: data, NumDelivered: 1}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for _, c := range []struct{ session, id string }{{"s1", "m.0"}, {"s1", "m.1"}, {"s2", "m.0"}} {
		wg.Go(func() {
			_, err := st.Handler(ctx, msg(c.session, c.id))
			errs <- err
		})
	}
	waitFor(t, func() bool { b, _ := os.ReadFile(runs); return strings.Count(string(b), "\n") == 3 })

	_, err := st.Handler(ctx, msg("s1", "m.2"))
	if !pipeline.IsPermanent(err) || bind.CodeOf(err, "") != CodeTooManyExecutions || !strings.Contains(err.Error(), "--session-executions") {
		t.Fatalf("third call of s1 = %v, want a permanent too_many_executions error naming the flag", err)
	}
	rej := st.Reject(msg("s1", "m.2"), err)
	var r schemas.Result
	if len(rej) == 0 || json.Unmarshal(rej[0].Data, &r) != nil || r.Error == nil || r.Error.Code != CodeTooManyExecutions || r.IntentID != "m.2" {
		t.Fatalf("rejection = %+v", r)
	}

	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("a call within the limit failed: %v", err)
		}
	}
	if _, err := st.Handler(ctx, msg("s1", "m.3")); err != nil {
		t.Fatalf("a call after the others finished: %v", err)
	}
	if b, _ := os.ReadFile(runs); strings.Contains(string(b), "m.2") {
		t.Fatal("the refused call ran")
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A call over the session's limit is expendable to the runner (answered,
// then let go when the DLQ's share is full); other rejections are not.
func TestOverLimitIsExpendable(t *testing.T) {
	st := Stage(newExecutor(t, nil))
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{pipeline.Permanent(errTooManyExecutions("s1", 8)), true},
		{errTooManyExecutions("s1", 8), true},
		{pipeline.Permanent(ErrUnknownTool), false},
		{pipeline.Permanentf("internal error in stage execute: boom"), false},
	} {
		if got := st.Expendable(tt.err); got != tt.want {
			t.Errorf("Expendable(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
