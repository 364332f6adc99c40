package bench_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/bench"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
)

// answer stands in for the stages: every agent output gets an accepted
// receipt and one result per [TOOL: …] it holds, with the status status
// gives for the output.
func answer(t *testing.T, js jetstream.JetStream, status func(out schemas.AgentOutput) string) *atomic.Int64 {
	t.Helper()
	var outputs atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	cons, err := js.OrderedConsumer(ctx, pipeline.StreamAgent, jetstream.OrderedConsumerConfig{FilterSubjects: []string{"agent.output.>"}})
	if err != nil {
		t.Fatal(err)
	}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		var out schemas.AgentOutput
		if err := json.Unmarshal(m.Data(), &out); err != nil {
			t.Error(err)
			return
		}
		outputs.Add(1)
		send := func(r schemas.Result) {
			r.SessionID, r.MessageID = out.SessionID, out.MessageID
			data, _ := json.Marshal(r)
			if _, err := js.Publish(ctx, schemas.ResultSubject(out.SessionID), data); err != nil && ctx.Err() == nil {
				t.Error(err)
			}
		}
		send(schemas.Result{Status: schemas.StatusAccepted})
		for i := 0; i < strings.Count(out.Text, "[TOOL:"); i++ {
			send(schemas.Result{Status: status(out), IntentID: "i", Message: "because"})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cc.Stop)
	return &outputs
}

func TestPipelineCountsEveryIntent(t *testing.T) {
	env := pipelinetest.Start(t)
	outputs := answer(t, env.JS, func(schemas.AgentOutput) string { return schemas.StatusExecuted })
	for _, tc := range []struct {
		name                     string
		intents, perOutput, outs int
		inFlight, wantInFlight   int
	}{
		{"one intent an output", 50, 1, 50, 8, 8},
		{"three an output, the last short", 10, 3, 4, 32, 4},
		{"hundreds in one output", 300, 300, 1, 4, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := outputs.Load()
			var progress atomic.Int64
			rep, err := bench.Pipeline(context.Background(), env.JS, bench.WithIntents(tc.intents), bench.WithIntentsPerOutput(tc.perOutput),
				bench.WithInFlight(tc.inFlight), bench.WithProgress(time.Millisecond, func(bench.Progress) { progress.Add(1) }))
			if err != nil {
				t.Fatal(err)
			}
			if rep.Intents != tc.intents || rep.Outputs != tc.outs || rep.InFlight != tc.wantInFlight || rep.Failed != 0 {
				t.Errorf("report %+v: want %d intents in %d outputs, %d in flight, none failed", rep, tc.intents, tc.outs, tc.wantInFlight)
			}
			// The warm-up output is sent too.
			if got := outputs.Load() - before; got != int64(tc.outs+1) {
				t.Errorf("%d outputs published, want %d", got, tc.outs+1)
			}
			if rep.IntentsPerS <= 0 || rep.Seconds <= 0 || rep.P50MS <= 0 || rep.P50MS > rep.P90MS || rep.P90MS > rep.P99MS || rep.P99MS > rep.MaxMS {
				t.Errorf("figures not sane: %+v", rep)
			}
		})
	}
}

func TestPipelineReportsFailures(t *testing.T) {
	env := pipelinetest.Start(t)
	// One output fails, chosen by its message id (<run>-<i>): not by its
	// session, since the in-flight slots (a session each) take outputs
	// from one queue as they finish, and on a loaded machine one slot can
	// take them all before another has started (one took 40 of 40).
	answer(t, env.JS, func(out schemas.AgentOutput) string {
		if strings.HasSuffix(out.MessageID, "-1") {
			return schemas.StatusNotFound
		}
		return schemas.StatusExecuted
	})
	rep, err := bench.Pipeline(context.Background(), env.JS, bench.WithIntents(40), bench.WithInFlight(4))
	if err == nil {
		t.Fatal("no error, though one output's intent was not found")
	}
	if rep.Failed != 1 || !strings.Contains(rep.FirstFailure, "not_found: because") {
		t.Errorf("report %+v: want one of the %d outputs failed, with the result's message", rep, rep.Outputs)
	}
}

func TestPipelineWithoutStagesSaysSo(t *testing.T) {
	env := pipelinetest.Start(t)
	_, err := bench.Pipeline(context.Background(), env.JS, bench.WithIntents(1), bench.WithOutputTimeout(200*time.Millisecond))
	if err == nil || !strings.Contains(err.Error(), "are the stages running?") {
		t.Fatalf("error %v, want one asking whether the stages run", err)
	}
}

func TestPipelineRefusesNonsense(t *testing.T) {
	env := pipelinetest.Start(t)
	for _, opt := range []bench.Option{bench.WithIntents(0), bench.WithInFlight(0), bench.WithIntentsPerOutput(-1)} {
		if _, err := bench.Pipeline(context.Background(), env.JS, opt); err == nil {
			t.Error("no error for a bound below 1")
		}
	}
}

func TestRaw(t *testing.T) {
	env := pipelinetest.Start(t)
	rep, err := bench.Raw(context.Background(), env.JS, bench.WithMessages(5000), bench.WithMessageSize(64))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Messages != 5000 || rep.Size != 64 || rep.MsgsPerS <= 0 || rep.PublishPerS < rep.MsgsPerS || rep.Seconds <= 0 {
		t.Errorf("report %+v not sane", rep)
	}
	// The temporary stream is gone.
	names := env.JS.StreamNames(context.Background())
	for name := range names.Name() {
		if strings.HasPrefix(name, "BENCH_RAW_") {
			t.Errorf("stream %s left behind", name)
		}
	}
}
