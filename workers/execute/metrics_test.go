package execute

import (
	"fmt"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// Calls are counted once per run, by tool, kind and outcome: a redelivery
// answered from the execution record is not counted again.
func TestStageCountsCalls(t *testing.T) {
	o := newOnceEnv(t, false)
	count := func(outcome string) float64 {
		return testutil.ToFloat64(Calls.WithLabelValues("t/effect", schemas.ExecSubprocess, outcome))
	}
	executed, invalid := count("executed"), count(bind.CodeInvalidArgs)
	ok := effectCall("m1.0", map[string]any{"label": "a"})
	for range 2 { // delivered twice, run once
		if _, err := o.handle(t, ok); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := o.handle(t, effectCall("m1.1", map[string]any{"size": 3})); err != nil {
		t.Fatal(err)
	}
	if got := count("executed") - executed; got != 1 {
		t.Errorf("executed calls counted %v times, want 1", got)
	}
	if got := count(bind.CodeInvalidArgs) - invalid; got != 1 {
		t.Errorf("a call without its required argument counted %v times as %s, want 1", got, bind.CodeInvalidArgs)
	}
}

// The tool label keeps the first ids it sees, then says "other".
func TestToolLabelIsBounded(t *testing.T) {
	b := &boundedLabels{max: 3}
	for i, want := range []string{"a/1", "a/2", "a/3", "other", "other"} {
		if got := b.label(fmt.Sprintf("a/%d", i+1)); got != want {
			t.Errorf("label %d = %q, want %q", i+1, got, want)
		}
	}
	if got := b.label("a/2"); got != "a/2" {
		t.Errorf("an id seen before is %q, want it kept", got)
	}
}

// A call of a registered tool without an executor is counted under kind
// "none"; counting it dereferenced the missing executor and the stage
// answered "internal error" (a panic), dead-lettering the call.
func TestCallOfAToolWithoutExecutorIsCounted(t *testing.T) {
	e := &Executor{builtins: map[string]schemas.Manifest{"t/described": {ID: "t/described", Description: "no way to run"}}}
	before := testutil.ToFloat64(Calls.WithLabelValues("t/described", "none", "not_runnable"))
	e.observeCall("t/described", "not_runnable")
	if got := testutil.ToFloat64(Calls.WithLabelValues("t/described", "none", "not_runnable")) - before; got != 1 {
		t.Errorf("counted %v times, want 1", got)
	}
}
