package pipeline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// A stage's secrets reach the hand-off marked Secret and nothing else it
// writes: not its other outputs, its rejections or its dead letters, and
// not what its handler learns along the way.
func TestRunnerScrubsStageSecrets(t *testing.T) {
	env := pipelinetest.Start(t)
	type in struct {
		Token string `json:"token"`
		Fail  bool   `json:"fail"`
	}
	st := pipeline.Stage{
		Name: "secretive", Stream: pipeline.StreamPipe, Subjects: []string{"pipe.secretive.>"},
		Secrets: func(_ context.Context, m *pipeline.Msg) []string {
			var v in
			_ = json.Unmarshal(m.Data, &v)
			return []string{v.Token}
		},
		Handler: func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
			var v in
			_ = json.Unmarshal(m.Data, &v)
			if v.Fail {
				return nil, pipeline.Permanentf("token %s was refused", v.Token)
			}
			pipeline.ScrubberFrom(ctx).Add("learned-" + v.Token)
			key := m.Subject[strings.LastIndexByte(m.Subject, '.')+1:]
			return []pipeline.Out{
				{Subject: "pipe.next." + key, Data: m.Data, ID: "next-" + key, Secret: true},
				{Subject: "result." + key, Data: fmt.Appendf(nil, `{"said":"ran with %s and learned-%s"}`, v.Token, v.Token), ID: "res-" + key},
				// Secret is honoured on work queues only.
				{Subject: "result.leak." + key, Data: m.Data, ID: "leak-" + key, Secret: true},
			}, nil
		},
		Reject: func(m *pipeline.Msg, reason error) []pipeline.Out {
			return []pipeline.Out{{Subject: "result.rejected", Data: []byte(reason.Error()), ID: fmt.Sprintf("rej-%d", m.StreamSeq)}}
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- pipeline.Run(ctx, env.JS, st, pipeline.WithFetchWait(200*time.Millisecond)) }()
	t.Cleanup(func() { cancel(); <-done })

	publish(t, env, "pipe.secretive.ok", `{"token":"tok-SECRET-1"}`, "")
	publish(t, env, "pipe.secretive.bad", `{"token":"tok-SECRET-2","fail":true}`, "")

	// A work queue cannot be read with a second consumer: look the message up.
	pipe, err := env.JS.Stream(context.Background(), pipeline.StreamPipe)
	if err != nil {
		t.Fatal(err)
	}
	var next []byte
	for deadline := time.Now().Add(10 * time.Second); next == nil && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if m, err := pipe.GetLastMsgForSubject(context.Background(), "pipe.next.ok"); err == nil {
			next = m.Data
		}
	}
	if !strings.Contains(string(next), "tok-SECRET-1") {
		t.Fatalf("the Secret hand-off lost its secret: %s", next)
	}
	checks := []struct {
		stream, subject, want string
	}{
		{pipeline.StreamResult, "result.ok", `{"said":"ran with *** and ***"}`},
		{pipeline.StreamResult, "result.leak.ok", `{"token":"***"}`},
		{pipeline.StreamResult, "result.rejected", "token *** was refused"},
		{pipeline.StreamDLQ, pipeline.DLQSubject("secretive"), `{"fail":true,"token":"***"}`},
	}
	for _, c := range checks {
		got := env.Collect(t, c.stream, c.subject, 1, 10*time.Second)
		if len(got) != 1 {
			t.Errorf("%s: nothing published", c.subject)
			continue
		}
		if string(got[0].Data()) != c.want {
			t.Errorf("%s: %s, want %s", c.subject, got[0].Data(), c.want)
		}
		for k, vs := range got[0].Headers() {
			if strings.Contains(strings.Join(vs, " "), "SECRET") {
				t.Errorf("%s: header %s holds the secret: %v", c.subject, k, vs)
			}
		}
		if c.stream == pipeline.StreamDLQ && got[0].Headers().Get(pipeline.HeaderDLQRedacted) != "true" {
			t.Errorf("dead letter not marked redacted: %v", got[0].Headers())
		}
	}
}
