package pipeline_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// A full downstream stream holds a stage's messages (back-pressure) instead
// of burning their deliveries into dead letters: once there is room, every
// message goes through, none is dead-lettered.
func TestFullDownstreamHoldsMessages(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx := context.Background()
	// The stage's outputs go to a stream with room for two messages that
	// refuses more rather than dropping.
	if _, err := env.JS.CreateStream(ctx, jetstream.StreamConfig{Name: "NARROW", Subjects: []string{"narrow.>"},
		MaxMsgs: 2, Discard: jetstream.DiscardNew, Storage: jetstream.MemoryStorage}); err != nil {
		t.Fatal(err)
	}
	into := func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
		return []pipeline.Out{{Subject: "narrow." + fmt.Sprint(m.StreamSeq), Data: m.Data, ID: fmt.Sprint("n-", m.StreamSeq)}}, nil
	}
	// Two deliveries at most, a second apart: without back-pressure the
	// third message would be dead-lettered within seconds.
	runStage(t, env, into, pipeline.WithMaxDeliver(2), pipeline.WithAckWait(time.Second), pipeline.WithConcurrency(1))
	for i := range 5 {
		publish(t, env, fmt.Sprintf("pipe.test.k%d", i), fmt.Sprint(i), "")
	}
	narrow, err := env.JS.Stream(ctx, "NARROW")
	if err != nil {
		t.Fatal(err)
	}
	// Make room twice a second until all five went through.
	delivered := 0
	deadline := time.Now().Add(20 * time.Second)
	for delivered < 5 && time.Now().Before(deadline) {
		time.Sleep(500 * time.Millisecond)
		info, err := narrow.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for seq := info.State.FirstSeq; info.State.Msgs > 0 && seq <= info.State.LastSeq; seq++ {
			if err := narrow.DeleteMsg(ctx, seq); err == nil {
				delivered++
			}
		}
	}
	if delivered != 5 {
		t.Fatalf("%d of 5 messages went through", delivered)
	}
	dlq, err := env.JS.Stream(ctx, pipeline.StreamDLQ)
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := dlq.Info(ctx); info.State.Msgs != 0 {
		t.Errorf("%d messages were dead-lettered while the downstream stream was full", info.State.Msgs)
	}
}
