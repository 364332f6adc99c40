package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// echoStage forwards each pipe.test.<key> message to out.<key> through h.
func runStage(t *testing.T, env *pipelinetest.Env, h pipeline.Handler, opts ...pipeline.RunOption) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	st := pipeline.Stage{
		Name: "test", Stream: pipeline.StreamPipe, Subjects: []string{"pipe.test.>"}, Handler: h,
		Reject: func(m *pipeline.Msg, reason error) []pipeline.Out {
			return []pipeline.Out{{Subject: "result.rejected", Data: []byte(reason.Error()), ID: fmt.Sprintf("rej-%d", m.StreamSeq)}}
		},
	}
	opts = append([]pipeline.RunOption{pipeline.WithFetchWait(200 * time.Millisecond), pipeline.WithRetryBackoff(10*time.Millisecond, 50*time.Millisecond)}, opts...)
	go func() { done <- pipeline.Run(ctx, env.JS, st, opts...) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("runner: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

func publish(t *testing.T, env *pipelinetest.Env, subject, data, id string) {
	t.Helper()
	var opts []jetstream.PublishOpt
	if id != "" {
		opts = append(opts, jetstream.WithMsgID(id))
	}
	if _, err := env.JS.Publish(context.Background(), subject, []byte(data), opts...); err != nil {
		t.Fatal(err)
	}
}

func forward(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
	key := m.Subject[strings.LastIndexByte(m.Subject, '.')+1:]
	return []pipeline.Out{{Subject: "result." + key, Data: m.Data, ID: "fwd-" + key}}, nil
}

func TestRunnerForwardsAndAcks(t *testing.T) {
	env := pipelinetest.Start(t)
	runStage(t, env, forward, pipeline.WithConcurrency(3))
	for i := 0; i < 20; i++ {
		publish(t, env, fmt.Sprintf("pipe.test.k%d", i), fmt.Sprint(i), "")
	}
	got := env.Collect(t, pipeline.StreamResult, "result.>", 20, 10*time.Second)
	if len(got) != 20 {
		t.Fatalf("got %d results, want 20", len(got))
	}
	pipelinetest.WaitEmpty(t, env.JS, pipeline.StreamPipe, 10*time.Second)
}

func TestRunnerRetriesTransientErrors(t *testing.T) {
	env := pipelinetest.Start(t)
	var calls atomic.Int32
	runStage(t, env, func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
		if calls.Add(1) < 3 {
			return nil, errors.New("flaky dependency")
		}
		if m.NumDelivered != 3 {
			return nil, pipeline.Permanentf("third call saw delivery %d", m.NumDelivered)
		}
		return forward(ctx, m)
	})
	publish(t, env, "pipe.test.a", "x", "")
	if got := env.Collect(t, pipeline.StreamResult, "result.a", 1, 10*time.Second); len(got) != 1 {
		t.Fatalf("no result after retries (calls=%d)", calls.Load())
	}
	if rej := env.Collect(t, pipeline.StreamResult, "result.rejected", 1, 300*time.Millisecond); len(rej) != 0 {
		t.Fatalf("unexpected rejection: %s", rej[0].Data())
	}
}

func TestRunnerRejectsPermanentErrorsOnce(t *testing.T) {
	tests := []struct {
		name    string
		handler pipeline.Handler
		reason  string
	}{
		{"permanent error", func(context.Context, *pipeline.Msg) ([]pipeline.Out, error) {
			return nil, pipeline.Permanentf("bad input: %s", "no session")
		}, "bad input: no session"},
		{"panic", func(context.Context, *pipeline.Msg) ([]pipeline.Out, error) {
			panic("boom")
		}, "internal error in stage test: boom"},
		{"exhausted retries", func(context.Context, *pipeline.Msg) ([]pipeline.Out, error) {
			return nil, errors.New("still down")
		}, "gave up after 3 deliveries: still down"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := pipelinetest.Start(t)
			var calls atomic.Int32
			runStage(t, env, func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
				calls.Add(1)
				return tt.handler(ctx, m)
			}, pipeline.WithMaxDeliver(3))
			publish(t, env, "pipe.test.a", "payload", "")
			rej := env.Collect(t, pipeline.StreamResult, "result.rejected", 1, 10*time.Second)
			if len(rej) != 1 || string(rej[0].Data()) != tt.reason {
				t.Fatalf("rejection = %v, want %q", rej, tt.reason)
			}
			dl := env.Collect(t, pipeline.StreamDLQ, "dlq.test", 1, 5*time.Second)
			if len(dl) != 1 {
				t.Fatal("no dead letter")
			}
			h := dl[0].Headers()
			if string(dl[0].Data()) != "payload" || h.Get(pipeline.HeaderDLQReason) != tt.reason || h.Get(pipeline.HeaderDLQSubject) != "pipe.test.a" {
				t.Fatalf("dead letter = %q %v", dl[0].Data(), h)
			}
			pipelinetest.WaitEmpty(t, env.JS, pipeline.StreamPipe, 10*time.Second)
			// Nothing more happens to a rejected message.
			time.Sleep(300 * time.Millisecond)
			want := int32(1)
			if tt.name == "exhausted retries" {
				want = 3
			}
			if c := calls.Load(); c != want {
				t.Fatalf("handler called %d times, want %d", c, want)
			}
		})
	}
}

func TestRunnerDeduplicatesRedeliveredOutputs(t *testing.T) {
	env := pipelinetest.Start(t)
	var calls atomic.Int32
	// The first attempt publishes, then fails as if the process died before
	// acking: the redelivery publishes the same ids, which the stream drops.
	runStage(t, env, func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
		outs, _ := forward(ctx, m)
		if calls.Add(1) == 1 {
			_, err := env.JS.PublishMsg(ctx, natsMsg(outs[0]), jetstream.WithMsgID(outs[0].ID))
			if err != nil {
				return nil, pipeline.Permanent(err)
			}
			return nil, errors.New("crashed after publishing")
		}
		return outs, nil
	})
	publish(t, env, "pipe.test.a", "x", "")
	pipelinetest.WaitEmpty(t, env.JS, pipeline.StreamPipe, 10*time.Second)
	if got := env.Collect(t, pipeline.StreamResult, "result.a", 2, time.Second); len(got) != 1 {
		t.Fatalf("got %d results, want exactly 1", len(got))
	}
}

func TestRunnerHeartbeatsKeepLongMessages(t *testing.T) {
	env := pipelinetest.Start(t)
	var calls atomic.Int32
	runStage(t, env, func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
		calls.Add(1)
		time.Sleep(1500 * time.Millisecond) // three ack waits
		return forward(ctx, m)
	}, pipeline.WithAckWait(500*time.Millisecond))
	publish(t, env, "pipe.test.a", "x", "")
	if got := env.Collect(t, pipeline.StreamResult, "result.a", 1, 10*time.Second); len(got) != 1 {
		t.Fatal("no result")
	}
	if c := calls.Load(); c != 1 {
		t.Fatalf("handler called %d times: the message was redelivered while in progress", c)
	}
}

func TestRunnerDrainsInFlightOnStop(t *testing.T) {
	env := pipelinetest.Start(t)
	started := make(chan struct{})
	var once sync.Once
	stop := runStage(t, env, func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
		once.Do(func() { close(started) })
		time.Sleep(300 * time.Millisecond)
		return forward(ctx, m)
	})
	publish(t, env, "pipe.test.a", "x", "")
	<-started
	stop()
	if got := env.Collect(t, pipeline.StreamResult, "result.a", 1, 2*time.Second); len(got) != 1 {
		t.Fatal("in-flight message was not finished before the runner returned")
	}
	pipelinetest.WaitEmpty(t, env.JS, pipeline.StreamPipe, 10*time.Second)
}

func TestMaxDeliveriesOfCrashedWorkersAreDeadLettered(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx := context.Background()
	// A consumer whose deliveries are never answered, as when every worker
	// handling the message is killed.
	cons, err := env.JS.CreateOrUpdateConsumer(ctx, pipeline.StreamPipe, jetstream.ConsumerConfig{
		Durable: "test", FilterSubject: "pipe.test.>", AckPolicy: jetstream.AckExplicitPolicy,
		AckWait: 200 * time.Millisecond, MaxDeliver: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	publish(t, env, "pipe.test.a", "poison", "")
	for i := 0; i < 2; i++ {
		b, err := cons.Fetch(1, jetstream.FetchMaxWait(2*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		for range b.Messages() {
		}
	}
	// A runner for the stage (same consumer settings) picks up the advisory.
	runStage(t, env, forward, pipeline.WithAckWait(200*time.Millisecond), pipeline.WithMaxDeliver(2))
	dl := env.Collect(t, pipeline.StreamDLQ, "dlq.test", 1, 10*time.Second)
	if len(dl) != 1 || string(dl[0].Data()) != "poison" {
		t.Fatalf("dead letters: %v", dl)
	}
	if rej := env.Collect(t, pipeline.StreamResult, "result.rejected", 1, 5*time.Second); len(rej) != 1 {
		t.Fatal("no rejection answer for the dead-lettered message")
	}
	pipelinetest.WaitEmpty(t, env.JS, pipeline.StreamPipe, 10*time.Second)
	if got := env.Collect(t, pipeline.StreamResult, "result.a", 1, 300*time.Millisecond); len(got) != 0 {
		t.Fatal("dead-lettered message was processed")
	}
}

func TestAcknowledgedMessagesSurviveServerRestart(t *testing.T) {
	dir := t.TempDir()
	env := pipelinetest.Start(t, dir)
	for i := 0; i < 50; i++ {
		publish(t, env, fmt.Sprintf("audit.test.s%d", i), "record", "")
	}
	env.Stop()
	env2 := pipelinetest.Start(t, dir)
	if got := env2.Collect(t, pipeline.StreamAudit, "audit.>", 50, 5*time.Second); len(got) != 50 {
		t.Fatalf("after restart: %d audit records, want 50", len(got))
	}
}

func TestPermanent(t *testing.T) {
	base := errors.New("x")
	if !pipeline.IsPermanent(fmt.Errorf("wrapped: %w", pipeline.Permanent(base))) {
		t.Fatal("wrapped permanent error not recognised")
	}
	if pipeline.IsPermanent(base) || pipeline.Permanent(nil) != nil {
		t.Fatal("plain error taken as permanent")
	}
	if !errors.Is(pipeline.Permanent(base), base) {
		t.Fatal("Permanent hides the cause")
	}
}
