package integration

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// An output with a nested intent and a direct call: every intent gets one
// result, every tool runs once, the outer intent runs after its inner one
// with the inner one's output in its text, and the receipt lists what to
// expect.
func TestOutputWithNestedAndDirectIntents(t *testing.T) {
	env := startEnv(t)
	reg, recordFile := testRegistry(t)
	runStagesInProcess(t, env, reg)

	text := "Let me do three things.\n" +
		"[TOOL: test/record label=outer once [TOOL: test/record label=inner] is done]\n" +
		"and directly: <tool_call name=\"test/record\">{\"label\": \"direct\"}</tool_call>\n" +
		"Example, not a call: `[TOOL: test/record label=doc]`."
	msgID := publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "s1", Text: text})

	rs := results(t, env.JS, "s1", 20*time.Second, countAnswered(3))
	got := byIntent(rs)
	if len(got) != 3 {
		t.Fatalf("got results for %d intents, want 3: %+v", len(got), rs)
	}
	var receipt *schemas.Result
	for i := range rs {
		if rs[i].Status == schemas.StatusAccepted {
			receipt = &rs[i]
		}
	}
	if receipt == nil || len(receipt.IntentIDs) != 3 || receipt.MessageID != msgID {
		t.Fatalf("receipt = %+v", receipt)
	}
	for id, r := range got {
		if len(r) != 1 {
			t.Errorf("intent %s answered %d times", id, len(r))
		}
		if r[0].Status != schemas.StatusExecuted || r[0].ToolID != "test/record" {
			t.Errorf("intent %s: %s %s %s, want test/record executed", id, r[0].Status, r[0].ToolID, r[0].Message)
		}
	}
	if outer := got[receipt.IntentIDs[1]]; len(outer) == 0 || outer[0].Intent != "test/record label=outer once recorded inner is done" {
		t.Errorf("outer intent did not run on the inner one's output: %+v", outer)
	}
	// A short grace period for any duplicate execution to show.
	time.Sleep(300 * time.Millisecond)
	rec := records(t, recordFile)
	for _, label := range []string{"inner", "outer", "direct"} {
		if n := len(rec[label]); n != 1 {
			t.Errorf("%s executed %d times, want once", label, n)
		}
	}
	if order := recordOrder(t, recordFile); slices.Index(order, "outer") < slices.Index(order, "inner") {
		t.Errorf("outer ran before inner: %v", order)
	}
	if _, ran := rec["doc"]; ran {
		t.Error("the intent in inline code ran")
	}
}

// Malformed outputs are answered with a clear error, kept in the DLQ, and the
// pipeline goes on serving.
func TestMalformedOutputsAreAnsweredAndDeadLettered(t *testing.T) {
	env := startEnv(t)
	reg, _ := testRegistry(t)
	runStagesInProcess(t, env, reg)
	ctx := t.Context()

	big := `{"session_id":"bad3","message_id":"m3","text":"` + strings.Repeat("x", 300<<10) + `"}`
	cases := []struct {
		session, payload, want string
	}{
		{"bad1", `{"session_id": "bad1", "text": `, "not valid JSON"},
		{"bad2", `{"message_id": "m2", "text": "[TOOL: test/record label=x]"}`, "session_id"},
		{"bad3", big, "over the limit"},
		{"bad4", `{"session_id": "other", "message_id": "m4", "text": "hi"}`, "does not match"},
	}
	for _, c := range cases {
		if _, err := env.JS.Publish(ctx, schemas.AgentOutputSubject(c.session), []byte(c.payload)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cases {
		rs := results(t, env.JS, c.session, 10*time.Second, func(rs []schemas.Result) bool { return len(rs) > 0 })
		if len(rs) != 1 || rs[0].Status != schemas.StatusError || rs[0].Error == nil || !strings.Contains(rs[0].Message, c.want) {
			t.Errorf("session %s: results %+v, want one error mentioning %q", c.session, rs, c.want)
		}
	}
	if dl := dlq(t, env, bind.StageParse, len(cases)); len(dl) != len(cases) {
		t.Errorf("%d dead letters, want %d", len(dl), len(cases))
	}
	// Still serving.
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "good", Text: "[TOOL: test/record label=after]"})
	rs := results(t, env.JS, "good", 20*time.Second, countAnswered(1))
	if got := byIntent(rs); len(got) != 1 {
		t.Fatalf("pipeline stopped serving after bad input: %+v", rs)
	}
}

// recordOrder lists the recorded labels in the order they ran.
func recordOrder(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		label, _, _ := strings.Cut(sc.Text(), " ")
		out = append(out, label)
	}
	return out
}
