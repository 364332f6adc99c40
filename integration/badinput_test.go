package integration

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/stages"
)

// runStagesWithLimits runs every stage in this process with the given limits.
func runStagesWithLimits(t *testing.T, env *pipelinetest.Env, registryFile string, limits stages.Limits) {
	t.Helper()
	tools, err := registry.LoadFile(registryFile)
	if err != nil {
		t.Fatal(err)
	}
	runStagesWith(t, env, stages.Config{Tools: tools, Limits: &limits}, bind.Stages)
}

// Bad input gets a clear error result on its session, is kept in the DLQ,
// and runs nothing: invalid UTF-8, outputs over each limit, a session over
// its rate. Input on a subject without one valid session is answered
// nowhere (there is no session to answer) and kept in the DLQ.
func TestBadInputIsAnsweredAndRunsNothing(t *testing.T) {
	env := startEnv(t)
	reg, record := testRegistry(t)
	runStagesWithLimits(t, env, reg, stages.Limits{OutputBytes: 2048, ConversationBytes: 1024, Intents: 2, SessionRate: 0.001, SessionBurst: 1})
	ctx := t.Context()

	// Every case uses message id m1, in its own session: an error result
	// de-duplicated across sessions (the id once lacked the session) would
	// be lost.
	conv := `[{"role":"user","content":"` + strings.Repeat("c", 2000) + `"}]`
	cases := []struct {
		name, session, payload string
		code, mentions         string
	}{
		{"invalid UTF-8", "utf8", "{\"session_id\":\"utf8\",\"message_id\":\"m1\",\"text\":\"[TOOL: test/record label=utf8-\xff]\"}", "invalid_utf8", "not valid UTF-8"},
		{"lone surrogate", "surrogate", `{"session_id":"surrogate","message_id":"m1","text":"[TOOL: test/record label=sur\ud800]"}`, "invalid_utf8", "surrogate"},
		{"output too large", "large", `{"session_id":"large","message_id":"m1","text":"[TOOL: test/record label=large] ` + strings.Repeat("x", 3000) + `"}`, "too_large", "--max-output-bytes"},
		{"conversation too large", "conv", `{"session_id":"conv","message_id":"m1","text":"[TOOL: test/record label=conv]","conversation":` + conv + `}`, "conversation_too_large", "--max-conversation-bytes"},
		{"too many intents", "many", `{"session_id":"many","message_id":"m1","text":"[TOOL: test/record label=many1] [TOOL: test/record label=many2] [TOOL: test/record label=many3]"}`, "too_many_intents", "--max-intents"},
	}
	for _, c := range cases {
		if _, err := env.JS.Publish(ctx, schemas.AgentOutputSubject(c.session), []byte(c.payload)); err != nil {
			t.Fatal(err)
		}
	}
	// A session's second output within its rate's refill time is refused.
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "rate", MessageID: "m1", Text: "[TOOL: test/record label=rate-first]"})
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "rate", MessageID: "m2", Text: "[TOOL: test/record label=rate-second]"})
	// A subject with a session token after another names no session: the
	// payload's session is not answered, nothing runs.
	victim := `{"session_id":"victim","message_id":"m1","text":"[TOOL: test/record label=victim]"}`
	if _, err := env.JS.Publish(ctx, "agent.output.x.victim", []byte(victim)); err != nil {
		t.Fatal(err)
	}

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs := results(t, env.JS, c.session, 10*time.Second, func(rs []schemas.Result) bool { return len(rs) > 0 })
			if len(rs) != 1 || rs[0].Status != schemas.StatusError || rs[0].Error == nil || rs[0].Error.Code != c.code || !strings.Contains(rs[0].Message, c.mentions) {
				t.Fatalf("results %+v, want one error %s mentioning %q", rs, c.code, c.mentions)
			}
		})
	}
	// The parse stage handles messages concurrently: either output may be
	// the one that takes the session's only token.
	rs := results(t, env.JS, "rate", 20*time.Second, func(rs []schemas.Result) bool { return len(rs) >= 3 })
	var limited, executed []string
	for _, r := range rs {
		switch {
		case r.Status == schemas.StatusError && r.Error.Code == "rate_limited" && strings.Contains(r.Message, "--session-rate"):
			limited = append(limited, r.MessageID)
		case r.Status == schemas.StatusExecuted:
			executed = append(executed, r.MessageID)
		}
	}
	if len(limited) != 1 || len(executed) != 1 || limited[0] == executed[0] {
		t.Fatalf("rate session: results %+v; want one output executed and the other refused with rate_limited", rs)
	}
	ranLabel := map[string]string{"m1": "rate-first", "m2": "rate-second"}[executed[0]]
	if rs := results(t, env.JS, "victim", 2*time.Second, nil); len(rs) != 0 {
		t.Fatalf("a result went to the session a malformed subject's payload named: %+v", rs)
	}
	// Every refused output is kept: the five cases, the rate-limited one,
	// the malformed subject.
	if dl := dlq(t, env, bind.StageParse, len(cases)+2); len(dl) != len(cases)+2 {
		t.Errorf("%d dead letters, want %d", len(dl), len(cases)+2)
	}
	got := records(t, record)
	for label := range got {
		if label != ranLabel {
			t.Errorf("tool ran for refused input: %q", label)
		}
	}
	if len(got[ranLabel]) != 1 {
		t.Errorf("the output within the limits ran %d times, want once", len(got[ranLabel]))
	}
}

// toolyard publish refuses a session id that is not one subject token and
// text that is not UTF-8, before it connects: nothing is published.
func TestPublishRefusesBadSessionAndText(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		stdin    string
		mentions string
	}{
		{"dot", []string{"--session", "a.b", "hi"}, "", "separates subject tokens"},
		{"wildcard", []string{"--session", ">", "hi"}, "", "wildcard"},
		{"empty", []string{"--session", "", "hi"}, "", "empty"},
		{"space", []string{"--session", "a b", "hi"}, "", "whitespace"},
		{"too long", []string{"--session", strings.Repeat("s", 129), "hi"}, "", "over the limit of 128"},
		{"invalid UTF-8", []string{"--session", "s1", "-"}, "[TOOL: x \xff]", "not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// An address nobody listens on: the command must fail before it connects.
			cmd := exec.Command(binary, append([]string{"publish", "--nats", "nats://127.0.0.1:1"}, tt.args...)...)
			cmd.Stdin = strings.NewReader(tt.stdin)
			out, err := cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(out), tt.mentions) || strings.Contains(string(out), "is 'toolyard up' running") {
				t.Fatalf("publish %v: err %v, output %s; want a refusal mentioning %q before connecting", tt.args, err, out, tt.mentions)
			}
		})
	}
}

// The runner publishes nothing to a subject that is not literal, even when
// a handler asks it to: the input is rejected and dead-lettered.
func TestRunnerNeverPublishesToWildcardSubjects(t *testing.T) {
	env := startEnv(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	st := pipeline.Stage{Name: bind.StageParse, Stream: pipeline.StreamAgent, Subjects: []string{schemas.AgentOutputPrefix + ">"},
		Handler: func(_ context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
			return []pipeline.Out{{Subject: "result.*", Data: m.Data}, {Subject: "result.", Data: m.Data}}, nil
		},
		Reject: bind.Rejecter(bind.StageParse)}
	done := make(chan struct{})
	go func() { defer close(done); _ = pipeline.Run(ctx, env.JS, st, pipeline.WithFetchWait(time.Second)) }()
	if _, err := env.JS.Publish(ctx, "agent.output.s1", []byte(`{"session_id":"s1","text":"x"}`)); err != nil {
		t.Fatal(err)
	}
	dl := dlq(t, env, bind.StageParse, 1)
	if len(dl) != 1 {
		t.Fatalf("%d dead letters, want 1", len(dl))
	}
	rs := results(t, env.JS, "s1", 5*time.Second, func(rs []schemas.Result) bool { return len(rs) > 0 })
	if len(rs) != 1 || rs[0].Error == nil || !strings.Contains(rs[0].Message, "invalid subject") {
		t.Fatalf("results %+v, want one error naming the invalid subject", rs)
	}
	stream, err := env.JS.Stream(ctx, pipeline.StreamResult)
	if err != nil {
		t.Fatal(err)
	}
	info, err := stream.Info(ctx, jetstream.WithSubjectFilter("result.>"))
	if err != nil {
		t.Fatal(err)
	}
	for subj := range info.State.Subjects {
		if err := pipeline.CheckSubject(subj); err != nil {
			t.Errorf("the result stream holds a message on %q: %v", subj, err)
		}
	}
	cancel()
	<-done
}
