package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/toolyard/toolyard/ops/sample"
	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/stages"
)

// BenchmarkNestedLatency: the same two sample tools (real subprocesses),
// once as independent intents (run in parallel) and once nested (the outer
// one waits for the inner one's output), one output at a time through every
// stage on the embedded server. The difference is what sequencing through
// the join stage costs on top of running the two tools one after the other.
func BenchmarkNestedLatency(b *testing.B) {
	cases := []struct{ name, text string }{
		{"independent", `[TOOL: system/whoami] and [TOOL: text/word_count text="a b c"]`},
		{"nested", `[TOOL: text/word_count text="[TOOL: system/whoami]"]`},
	}
	tools, err := sample.Tools()
	if err != nil {
		b.Fatal(err)
	}
	env := pipelinetest.Start(b)
	set, err := stages.New(stages.Config{Tools: tools, Limits: unlimitedSessions()})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, name := range bind.Stages {
		st, err := set.Stage(name)
		if err != nil {
			b.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := pipeline.Run(ctx, env.JS, st, pipeline.WithConcurrency(16)); err != nil {
				b.Errorf("stage %s: %v", name, err)
			}
		}()
	}
	b.Cleanup(func() { cancel(); wg.Wait() })
	w := newResultWaiter(b, env.JS)
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			// The function runs once per b.N tried: ids must not repeat, or
			// the results would be duplicates the stream drops.
			run := time.Now().UnixNano()
			nestedRoundTrip(b, env, w, fmt.Sprintf("%s-%d-warmup", c.name, run), c.text)
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				lat = append(lat, nestedRoundTrip(b, env, w, fmt.Sprintf("%s-%d-%d", c.name, run, i), c.text))
			}
			b.StopTimer()
			reportLatency(b, lat, 2)
		})
	}
}

// nestedRoundTrip publishes text and waits for both of its intents to execute.
func nestedRoundTrip(b *testing.B, env *pipelinetest.Env, w *resultWaiter, msgID, text string) time.Duration {
	data, _ := json.Marshal(schemas.AgentOutput{SessionID: "nestbench", MessageID: msgID, Text: text})
	ch := w.expect(msgID)
	start := time.Now()
	if _, err := env.JS.Publish(context.Background(), schemas.AgentOutputSubject("nestbench"), data); err != nil {
		b.Fatal(err)
	}
	timeout := time.After(30 * time.Second)
	for got := 0; got < 2; {
		select {
		case r := <-ch:
			if r.Status == schemas.StatusAccepted {
				continue
			}
			if r.Status != schemas.StatusExecuted {
				b.Fatalf("intent %s (%s): %s: %s", r.IntentID, r.Intent, r.Status, r.Message)
			}
			got++
		case <-timeout:
			b.Fatalf("output %s: no two results after 30s", msgID)
		}
	}
	return time.Since(start)
}
