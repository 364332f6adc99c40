package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// errOverLimit stands for a rejection of the sender's own making.
var errOverLimit = errors.New("over the session's limit")

// A work-queue stage whose DLQ share is full: a rejection the stage calls
// expendable is answered and let go, never handled twice; any other is
// kept for another try (the work queue would lose it), as before.
func TestRefusedDeadLettersOfAWorkQueue(t *testing.T) {
	const share, sent = 2, 6
	for _, tt := range []struct {
		name       string
		expendable func(error) bool
		letGo      bool
	}{
		{"expendable", func(err error) bool { return errors.Is(err, errOverLimit) }, true},
		{"not expendable", nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := pipelinetest.Start(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			topo := env.Topology
			topo.DLQ.MaxPerSubject = share
			if err := topo.Apply(ctx, env.JS); err != nil {
				t.Fatal(err)
			}
			var handled atomic.Int64
			st := pipeline.Stage{
				Name: "test", Stream: pipeline.StreamPipe, Subjects: []string{"pipe.test.>"},
				Handler: func(context.Context, *pipeline.Msg) ([]pipeline.Out, error) {
					handled.Add(1)
					return nil, pipeline.Permanent(errOverLimit)
				},
				Reject: func(m *pipeline.Msg, reason error) []pipeline.Out {
					return []pipeline.Out{{Subject: "result.rejected", Data: []byte(reason.Error()), ID: fmt.Sprintf("rej-%d", m.StreamSeq)}}
				},
				Expendable: tt.expendable,
			}
			go func() {
				_ = pipeline.Run(ctx, env.JS, st, pipeline.WithFetchWait(200*time.Millisecond),
					pipeline.WithMaxDeliver(3), pipeline.WithRetryBackoff(10*time.Millisecond, 50*time.Millisecond))
			}()
			for i := range sent {
				publish(t, env, fmt.Sprintf("pipe.test.s%d", i), "work", "")
			}
			if got := env.Collect(t, pipeline.StreamResult, "result.rejected", sent, 10*time.Second); len(got) != sent {
				t.Fatalf("%d of %d answered", len(got), sent)
			}
			time.Sleep(time.Second) // any redelivery has happened by now
			n := handled.Load()
			if tt.letGo {
				if n != sent {
					t.Errorf("handled %d times for %d messages, want once each", n, sent)
				}
				pipelinetest.WaitEmpty(t, env.JS, pipeline.StreamPipe, 5*time.Second)
				return
			}
			if n <= sent {
				t.Errorf("handled %d times for %d messages: the refused ones were not kept for another try", n, sent)
			}
		})
	}
}
