package pipeline_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// A handler's RetryAfter sets the redelivery delay, instead of the
// runner's backoff (10–50ms here).
func TestRetryAfterSetsRedeliveryDelay(t *testing.T) {
	env := pipelinetest.Start(t)
	const delay = 1200 * time.Millisecond
	var mu sync.Mutex
	var seen []time.Time
	h := func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, time.Now())
		if len(seen) == 1 {
			return nil, pipeline.RetryAfter(errors.New("busy elsewhere"), delay)
		}
		return forward(ctx, m)
	}
	runStage(t, env, h)
	publish(t, env, "pipe.test.a", "x", "a")
	if got := env.Collect(t, "RESULT", "result.a", 1, 10*time.Second); len(got) != 1 {
		t.Fatalf("%d results", len(got))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 2 {
		t.Fatalf("%d deliveries, want 2", len(seen))
	}
	if gap := seen[1].Sub(seen[0]); gap < delay-100*time.Millisecond {
		t.Errorf("redelivered after %s, want about %s", gap, delay)
	}
	if pipeline.IsPermanent(pipeline.RetryAfter(errors.New("x"), time.Second)) {
		t.Error("RetryAfter is transient")
	}
}
