package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/stages"
)

// TestDLQJunkCannotEvictOtherStages floods parse with junk agent outputs
// until its share of the DLQ is full. Every junk output is still answered
// with an error; the dead letters past the share are refused (counted in
// toolyard_dlq_refused_total, the message kept in its stream and not
// tried again: redelivering junk until the DLQ had room held parse's
// pending slots, which a flood could fill for every session), none is
// evicted, and the execute stage, whose entry was there first, still has
// room for a new one. Purging parse's entries makes room again. The DLQ is
// first made as before (discard-old, one budget) so that applying the
// topology is also the upgrade an operator runs.
func TestDLQJunkCannotEvictOtherStages(t *testing.T) {
	env := startEnv(t)
	ctx := context.Background()
	const share, junk = 5, 20

	old := env.Topology.Streams()[4]
	if old.Name != pipeline.StreamDLQ {
		t.Fatalf("stream 4 is %s, want DLQ", old.Name)
	}
	old.Discard, old.MaxMsgsPerSubject, old.DiscardNewPerSubject = jetstream.DiscardOld, 0, false
	if _, err := env.JS.UpdateStream(ctx, old); err != nil {
		t.Fatal(err)
	}
	topo := env.Topology
	topo.DLQ.MaxPerSubject = share
	if diffs, err := topo.Differences(ctx, env.JS); err != nil || len(diffs) != 3 {
		t.Errorf("differences from the old DLQ: %q (%v), want discard, max_msgs_per_subject, discard_new_per_subject", diffs, err)
	}
	if err := topo.Apply(ctx, env.JS); err != nil {
		t.Fatalf("apply the per-stage DLQ shares to an existing DLQ: %v", err)
	}

	metrics := pipeline.NewMetrics(prometheus.NewRegistry())
	runStagesWith(t, env, stages.Config{}, []string{bind.StageParse, bind.StageExecute},
		pipeline.WithMetrics(metrics), pipeline.WithMaxDeliver(2), pipeline.WithRetryBackoff(10*time.Millisecond, 50*time.Millisecond))

	badCall := func(session string) {
		if _, err := env.JS.Publish(ctx, bind.PipeSubject(bind.StageExecute, session), []byte(`{"not":"a tool call"}`)); err != nil {
			t.Fatal(err)
		}
	}
	badCall("system1")
	if got := dlq(t, env, bind.StageExecute, 1); len(got) != 1 {
		t.Fatalf("execute dead letters: %d, want 1", len(got))
	}

	for i := range junk {
		if _, err := env.JS.Publish(ctx, schemas.AgentOutputSubject("junk"), fmt.Appendf(nil, "junk %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	answered := results(t, env.JS, "junk", 30*time.Second, func(rs []schemas.Result) bool { return len(rs) >= junk })
	for _, r := range answered {
		if r.Status != schemas.StatusError || r.Error == nil || r.Error.Code != bind.CodeInvalidInput {
			t.Errorf("junk answered with %+v, want an invalid_input error", r)
		}
	}
	if len(answered) != junk {
		t.Fatalf("%d of %d junk outputs answered", len(answered), junk)
	}
	refused := testutil.ToFloat64(metrics.DLQRefused.WithLabelValues(bind.StageParse))
	for deadline := time.Now().Add(10 * time.Second); refused < junk-share && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		refused = testutil.ToFloat64(metrics.DLQRefused.WithLabelValues(bind.StageParse))
	}
	if refused < junk-share {
		t.Errorf("toolyard_dlq_refused_total{stage=parse} = %v, want at least %d", refused, junk-share)
	}

	// Room kept for another stage, and nothing evicted.
	badCall("system2")
	if got := dlq(t, env, bind.StageExecute, 2); len(got) != 2 {
		t.Fatalf("execute dead letters after the flood: %d, want 2 (its share is its own)", len(got))
	}
	info := streamInfo(t, env, pipeline.StreamDLQ)
	if info.State.FirstSeq != 1 || info.State.Msgs != share+2 {
		t.Errorf("DLQ holds %d entries from seq %d, want %d from 1: an entry was evicted or the share not kept", info.State.Msgs, info.State.FirstSeq, share+2)
	}
	if n := info.State.NumSubjects; n != 2 {
		t.Errorf("DLQ subjects: %d, want 2", n)
	}
	// The refused junk is still in AGENT, where parse read it, and parse
	// holds none of it for another try.
	if agent := streamInfo(t, env, pipeline.StreamAgent); agent.State.Msgs != junk {
		t.Errorf("AGENT holds %d outputs, want all %d", agent.State.Msgs, junk)
	}
	cons, err := env.JS.Consumer(ctx, pipeline.StreamAgent, bind.StageParse)
	if err != nil {
		t.Fatal(err)
	}
	if ci, err := cons.Info(ctx); err != nil || ci.NumAckPending != 0 || ci.NumRedelivered != 0 || ci.NumPending != 0 {
		t.Errorf("parse after the flood: %d pending acks, %d redelivered, %d waiting (%v); want none", ci.NumAckPending, ci.NumRedelivered, ci.NumPending, err)
	}

	// Purging parse's share makes room for its next dead letters.
	if _, err := pipeline.PurgeDeadLetters(ctx, env.JS, bind.StageParse); err != nil {
		t.Fatalf("purge parse: %v", err)
	}
	if _, err := env.JS.Publish(ctx, schemas.AgentOutputSubject("junk"), []byte("junk after purge")); err != nil {
		t.Fatal(err)
	}
	got := dlq(t, env, bind.StageParse, 1)
	if len(got) != 1 || !strings.HasPrefix(string(got[0].Data()), "junk") {
		t.Errorf("after the purge, parse dead letters: %d, want a junk output", len(got))
	}
}

func streamInfo(t *testing.T, env *pipelinetest.Env, name string) *jetstream.StreamInfo {
	t.Helper()
	s, err := env.JS.Stream(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return info
}
