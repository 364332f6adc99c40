package integration

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/execute"
)

// An agent that publishes a different output under a message id its
// session used before, once the streams' duplicate window has passed, gets
// an error result saying so, and nothing runs: the execute stage found the
// earlier call's record under the same intent id and answered the new
// intent with the earlier call's stored result, a result of another tool
// for other words. The same output again still runs once.
func TestReusedMessageIDIsAnswered(t *testing.T) {
	env := startEnv(t)
	reg, record := testRegistry(t)
	// The duplicate window, shortened so that the test outlasts it.
	ctx := context.Background()
	for _, name := range []string{pipeline.StreamPipe, pipeline.StreamResult} {
		st, err := env.JS.Stream(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		cfg := st.CachedInfo().Config
		cfg.Duplicates = time.Second
		if _, err := env.JS.UpdateStream(ctx, cfg); err != nil {
			t.Fatal(err)
		}
	}
	runStagesInProcess(t, env, reg)
	tests := []struct {
		name, session, first, second, secondLabel string
	}{
		{"direct calls", "reuse-call", `<tool_call name="test/record">{"label": "call-first"}</tool_call>`, `<tool_call name="test/record">{"label": "call-second"}</tool_call>`, "call-second"},
		{"intents", "reuse-intent", "[TOOL: test/record label=intent-first]", "[TOOL: test/record label=intent-second]", "intent-second"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			publishOutput(t, env.JS, schemas.AgentOutput{SessionID: tt.session, MessageID: "m1", Text: tt.first})
			rs := results(t, env.JS, tt.session, 30*time.Second, countAnswered(1))
			if got := byIntent(rs)["m1.0"]; len(got) != 1 || got[0].Status != schemas.StatusExecuted {
				t.Fatalf("first output: results %+v", rs)
			}
			time.Sleep(1500 * time.Millisecond) // past the duplicate window
			publishOutput(t, env.JS, schemas.AgentOutput{SessionID: tt.session, MessageID: "m1", Text: tt.second})
			rs = results(t, env.JS, tt.session, 30*time.Second, func(rs []schemas.Result) bool { return len(byIntent(rs)["m1.0"]) >= 2 })
			got := byIntent(rs)["m1.0"]
			if len(got) != 2 {
				t.Fatalf("results of m1.0 after the reuse: %+v; want the first call's and an error", got)
			}
			if r := got[1]; r.Status != schemas.StatusError || r.Error == nil || r.Error.Code != execute.CodeMessageIDReused ||
				!strings.Contains(r.Message, "message id m1 was used before") {
				t.Fatalf("result of the reused id: %+v; want a %s error naming the id", r, execute.CodeMessageIDReused)
			}
			if n := len(records(t, record)[tt.secondLabel]); n != 0 {
				t.Fatalf("the reused id's call ran %d times", n)
			}
		})
	}
}

// 'toolyard publish --message-id ID --wait' for an id another client
// published before (with no Nats-Msg-Id, so the AGENT stream stored both)
// gets no receipt: the parse stage answered the id then. It says so; it
// said only "is a parse worker running?" while the worker was.
func TestPublishSaysAnIDWasPublishedBefore(t *testing.T) {
	_, url := startUp(t, "")
	js := connectJS(t, url)
	publishOutput(t, js, schemas.AgentOutput{SessionID: "before", MessageID: "z1", Text: "[TOOL: how long has the system been up]"})
	results(t, js, "before", 30*time.Second, countAnswered(1))
	cmd := exec.Command(binary, "publish", "--nats", url, "--session", "before", "--message-id", "z1", "--wait", "--timeout", "3s", "[TOOL: how long has the system been up]")
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(out), "message id z1 was published before by another client") {
		t.Fatalf("publish of an id published before: %v\n%s", err, out)
	}
}
