package pipeline_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// twoStages runs "first" (pipe.first.<key> → a hand-off to
// pipe.second.<key>, carrying its value) and "second" (pipe.second.<key> →
// result.<key>, through h) in one process with a shared Local, and returns
// the stages' metrics.
func twoStages(t *testing.T, env *pipelinetest.Env, chainable bool, h pipeline.Handler) *pipeline.Metrics {
	t.Helper()
	return chain(t, env, chainable, func(_ context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
		key := m.Subject[strings.LastIndexByte(m.Subject, '.')+1:]
		return []pipeline.Out{{Subject: "pipe.second." + key, Data: m.Data, Value: string(m.Data), ID: "second-" + key, Secret: true}}, nil
	}, h)
}

// chain runs first (on pipe.first.>) and second (on pipe.second.>) as
// twoStages does.
func chain(t *testing.T, env *pipelinetest.Env, chainable bool, firstHandler, h pipeline.Handler) *pipeline.Metrics {
	t.Helper()
	metrics := pipeline.NewMetrics(prometheus.NewRegistry())
	local := pipeline.NewLocal()
	first := pipeline.Stage{Name: "first", Stream: pipeline.StreamPipe, Subjects: []string{"pipe.first.>"}, Handler: firstHandler}
	second := pipeline.Stage{Name: "second", Stream: pipeline.StreamPipe, Subjects: []string{"pipe.second.>"}, Handler: h, Chainable: chainable,
		Reject: func(m *pipeline.Msg, reason error) []pipeline.Out {
			return []pipeline.Out{{Subject: "result.rejected", Data: []byte(reason.Error()), ID: fmt.Sprintf("rej-%d", m.StreamSeq)}}
		}}
	ctx, cancel := context.WithCancel(context.Background())
	var wg, ready sync.WaitGroup
	for _, st := range []pipeline.Stage{second, first} {
		wg.Add(1)
		ready.Add(1)
		go func() {
			defer wg.Done()
			err := pipeline.Run(ctx, env.JS, st, pipeline.WithLocal(local), pipeline.WithMetrics(metrics),
				pipeline.WithFetchWait(200*time.Millisecond), pipeline.WithRetryBackoff(10*time.Millisecond, 50*time.Millisecond),
				pipeline.WithReady(ready.Done))
			if err != nil {
				t.Errorf("stage %s: %v", st.Name, err)
			}
		}()
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
	// The hand-offs go local only once "second" takes work (WithReady):
	// wait for both, so the test sees both paths deliberately.
	started := make(chan struct{})
	go func() { ready.Wait(); close(started) }()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the stages never became ready")
	}
	return metrics
}

// delivered is how many messages the stage's consumer has delivered.
func delivered(t *testing.T, env *pipelinetest.Env, stage string) uint64 {
	t.Helper()
	c, err := env.JS.Consumer(context.Background(), pipeline.StreamPipe, stage)
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return info.Delivered.Consumer
}

func TestLocalHandOffSkipsTheStream(t *testing.T) {
	tests := []struct {
		name      string
		chainable bool
		// wantLocal: every hand-off handled in-process, with its value;
		// otherwise every one through the stream, as bytes only.
		wantLocal bool
	}{
		{"chainable stage", true, true},
		{"stage that is not chainable", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := pipelinetest.Start(t)
			var withValue, withoutValue atomic.Int32
			metrics := twoStages(t, env, tt.chainable, func(_ context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
				if v, ok := m.Value.(string); ok && v == string(m.Data) {
					withValue.Add(1)
				} else if m.Value == nil {
					withoutValue.Add(1)
				}
				return forward(context.Background(), m)
			})
			const n = 20
			for i := range n {
				publish(t, env, fmt.Sprintf("pipe.first.k%d", i), fmt.Sprint(i), "")
			}
			if got := env.Collect(t, pipeline.StreamResult, "result.>", n, 10*time.Second); len(got) != n {
				t.Fatalf("got %d results, want %d", len(got), n)
			}
			local := int(testutil.ToFloat64(metrics.LocalHandOffs.WithLabelValues("second")))
			acked := int(testutil.ToFloat64(metrics.Messages.WithLabelValues("second", pipeline.OutcomeAck)))
			fromStream := delivered(t, env, "second")
			if tt.wantLocal {
				if withValue.Load() != n || local != n || fromStream != 0 {
					t.Fatalf("local hand-offs: %d with the value, %d counted, %d delivered from the stream; want %d, %d, 0", withValue.Load(), local, fromStream, n, n)
				}
			} else if withoutValue.Load() != n || local != 0 || fromStream != n {
				t.Fatalf("through the stream: %d without a value, %d local, %d delivered; want %d, 0, %d", withoutValue.Load(), local, fromStream, n, n)
			}
			if acked != n {
				t.Fatalf("second acked %d, want %d (a local hand-off counts as handled)", acked, n)
			}
		})
	}
}

// A hand-off whose local handler fails goes to the stream, and the stage's
// own consumer settles it as it would have without chaining: a transient
// failure retried, a permanent one rejected once.
func TestLocalHandOffFailuresGoToTheStream(t *testing.T) {
	env := pipelinetest.Start(t)
	var localCalls, streamCalls atomic.Int32
	twoStages(t, env, true, func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
		if m.Value != nil {
			localCalls.Add(1)
		} else {
			streamCalls.Add(1)
		}
		switch {
		case strings.HasSuffix(m.Subject, ".bad"):
			return nil, pipeline.Permanentf("bad input %s", m.Data)
		case strings.HasSuffix(m.Subject, ".flaky") && m.Value != nil:
			return nil, errors.New("a dependency is down")
		case strings.HasSuffix(m.Subject, ".panics") && m.Value != nil:
			panic("handler bug")
		}
		return forward(ctx, m)
	})
	for _, k := range []string{"ok", "flaky", "bad", "panics"} {
		publish(t, env, "pipe.first."+k, k, "")
	}
	for _, k := range []string{"ok", "flaky", "panics"} {
		if got := env.Collect(t, pipeline.StreamResult, "result."+k, 1, 10*time.Second); len(got) != 1 {
			t.Fatalf("no result for %s (local calls %d, from the stream %d)", k, localCalls.Load(), streamCalls.Load())
		}
	}
	rej := env.Collect(t, pipeline.StreamResult, "result.rejected", 2, 2*time.Second)
	if len(rej) != 1 || !strings.Contains(string(rej[0].Data()), "bad input bad") {
		t.Fatalf("want one rejection of bad, got %d", len(rej))
	}
	// ok: local only; flaky, panics: local then the stream; bad: local,
	// then the stream rejects it at once.
	if localCalls.Load() != 4 || streamCalls.Load() != 3 {
		t.Fatalf("local calls %d, from the stream %d; want 4 and 3", localCalls.Load(), streamCalls.Load())
	}
	pipelinetest.WaitEmpty(t, env.JS, pipeline.StreamPipe, 10*time.Second)
}

// A hand-off left unencoded (pipeline.Handoff) reaches a stage of the same
// process as its value, never encoded, and a stage elsewhere as the value's
// JSON.
func TestHandoffIsEncodedOnlyForTheStream(t *testing.T) {
	type work struct {
		Key  string `json:"key"`
		Text string `json:"text"`
	}
	for _, chainable := range []bool{true, false} {
		t.Run(fmt.Sprintf("chainable=%v", chainable), func(t *testing.T) {
			env := pipelinetest.Start(t)
			var asValue, asJSON, other atomic.Int32
			chain(t, env, chainable, func(_ context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
				key := m.Subject[strings.LastIndexByte(m.Subject, '.')+1:]
				return []pipeline.Out{pipeline.Handoff("pipe.second."+key, "second-"+key, work{Key: key, Text: string(m.Data)})}, nil
			}, func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
				key := m.Subject[strings.LastIndexByte(m.Subject, '.')+1:]
				want := work{Key: key, Text: "payload " + key}
				var got work
				switch {
				case m.Value == want && m.Data == nil:
					asValue.Add(1)
				case m.Value == nil && json.Unmarshal(m.Data, &got) == nil && got == want:
					asJSON.Add(1)
				default:
					other.Add(1)
				}
				data, err := m.Bytes()
				if err != nil {
					return nil, err
				}
				return []pipeline.Out{{Subject: "result." + key, Data: data, ID: "fwd-" + key}}, nil
			})
			const n = 10
			for i := range n {
				publish(t, env, fmt.Sprintf("pipe.first.k%d", i), fmt.Sprintf("payload k%d", i), "")
			}
			got := env.Collect(t, pipeline.StreamResult, "result.>", n, 10*time.Second)
			if len(got) != n {
				t.Fatalf("got %d results, want %d", len(got), n)
			}
			for _, m := range got {
				var w work
				if err := json.Unmarshal(m.Data(), &w); err != nil || w.Text != "payload "+w.Key {
					t.Fatalf("result %s: %v", m.Data(), err)
				}
			}
			wantValue, wantJSON := int32(n), int32(0)
			if !chainable {
				wantValue, wantJSON = 0, n
			}
			if asValue.Load() != wantValue || asJSON.Load() != wantJSON || other.Load() != 0 {
				t.Fatalf("as the value %d, as JSON %d, otherwise %d; want %d, %d, 0", asValue.Load(), asJSON.Load(), other.Load(), wantValue, wantJSON)
			}
		})
	}
}
