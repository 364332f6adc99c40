package pipeline_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// Dead letters are listed, read by id, replayed once (a second replay of
// the same entry publishes nothing) and purged.
func TestDeadLetterAdmin(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx := context.Background()
	if err := pipeline.DefaultTopology().Ensure(ctx, env.JS); err != nil {
		t.Fatal(err)
	}
	give := func(stage, subject, body string, seq int) {
		m := nats.NewMsg(pipeline.DLQSubject(stage))
		m.Data = []byte(body)
		m.Header.Set(pipeline.HeaderDLQStage, stage)
		m.Header.Set(pipeline.HeaderDLQReason, "handler failed: boom")
		m.Header.Set(pipeline.HeaderDLQSubject, subject)
		m.Header.Set(pipeline.HeaderDLQStream, pipeline.StreamAgent)
		m.Header.Set(pipeline.HeaderDLQStreamSeq, "1"+string(rune('0'+seq)))
		m.Header.Set("Toolyard-Trace", "kept")
		if _, err := env.JS.PublishMsg(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	give("parse", "agent.output.s1", `{"a":1}`, 1)
	give("discover", "pipe.discover.s1", `{"b":2}`, 2)
	list := func(stage string) []pipeline.DeadLetter {
		t.Helper()
		var out []pipeline.DeadLetter
		if err := pipeline.DeadLetters(ctx, env.JS, stage, time.Time{}, func(d pipeline.DeadLetter) error { out = append(out, d); return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if ds := list(""); len(ds) != 2 || ds[0].Stage != "parse" || ds[0].Reason != "handler failed: boom" || ds[0].Subject != "agent.output.s1" {
		t.Fatalf("list: %+v", ds)
	}
	ds := list("parse")
	if len(ds) != 1 {
		t.Fatalf("list --stage parse: %+v", ds)
	}
	d, err := pipeline.DeadLetterByID(ctx, env.JS, ds[0].ID)
	if err != nil || string(d.Data) != `{"a":1}` {
		t.Fatalf("by id: %+v %v", d, err)
	}
	for range 2 { // the second replay of the same entry must publish nothing
		if err := pipeline.Replay(ctx, env.JS, d); err != nil {
			t.Fatal(err)
		}
	}
	msgs := env.Collect(t, pipeline.StreamAgent, "agent.output.s1", 1, 2*time.Second)
	if len(msgs) != 1 || string(msgs[0].Data()) != `{"a":1}` || msgs[0].Headers().Get("Toolyard-Trace") != "kept" || msgs[0].Headers().Get(pipeline.HeaderDLQReason) != "" {
		t.Fatalf("replayed %d messages: %+v", len(msgs), msgs)
	}
	if _, err := pipeline.DeadLetterByID(ctx, env.JS, d.ID); err == nil {
		t.Error("a replayed dead letter is still in the DLQ")
	}
	if n, err := pipeline.PurgeDeadLetters(ctx, env.JS, ""); err != nil || n != 1 || len(list("")) != 0 {
		t.Errorf("purge: %d %v, left %d", n, err, len(list("")))
	}
}
