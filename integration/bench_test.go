package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/stages"
)

// resultWaiter routes results to whoever waits for their output.
type resultWaiter struct {
	mu      sync.Mutex
	waiting map[string]chan schemas.Result
}

func newResultWaiter(b *testing.B, js jetstream.JetStream) *resultWaiter {
	w := &resultWaiter{waiting: map[string]chan schemas.Result{}}
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	cons, err := js.OrderedConsumer(ctx, pipeline.StreamResult, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{"result.>"}, DeliverPolicy: jetstream.DeliverNewPolicy,
	})
	if err != nil {
		b.Fatal(err)
	}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		var r schemas.Result
		if json.Unmarshal(m.Data(), &r) != nil {
			return
		}
		w.mu.Lock()
		ch := w.waiting[r.MessageID]
		w.mu.Unlock()
		if ch != nil {
			ch <- r
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(cc.Stop)
	return w
}

func (w *resultWaiter) expect(msgID string) chan schemas.Result {
	ch := make(chan schemas.Result, 64)
	w.mu.Lock()
	w.waiting[msgID] = ch
	w.mu.Unlock()
	return ch
}

// roundTrip publishes one output with k intents and waits for all k results.
func roundTrip(b *testing.B, js jetstream.JetStream, w *resultWaiter, session, msgID string, k int) time.Duration {
	var text strings.Builder
	for i := 0; i < k; i++ {
		fmt.Fprintf(&text, "Step %d: [TOOL: toolyard/help] then continue.\n", i)
	}
	data, _ := json.Marshal(schemas.AgentOutput{SessionID: session, MessageID: msgID, Text: text.String()})
	ch := w.expect(msgID)
	start := time.Now()
	if _, err := js.Publish(context.Background(), schemas.AgentOutputSubject(session), data); err != nil {
		b.Fatal(err)
	}
	got := 0
	timeout := time.After(30 * time.Second)
	for got < k {
		select {
		case r := <-ch:
			if r.Status == schemas.StatusAccepted {
				continue
			}
			if r.Status != schemas.StatusExecuted {
				b.Fatalf("intent %s: %s: %s", r.IntentID, r.Status, r.Message)
			}
			got++
		case <-timeout:
			b.Fatalf("output %s: %d of %d results after 30s", msgID, got, k)
		}
	}
	return time.Since(start)
}

func benchEnv(b *testing.B) (*pipelinetest.Env, *resultWaiter) {
	env := pipelinetest.Start(b)
	set, err := stages.New(stages.Config{Limits: unlimitedSessions()})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	local := pipeline.NewLocal() // as 'up' runs them: --local-handoff
	for _, name := range bind.Stages {
		st, _ := set.Stage(name)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = pipeline.Run(ctx, env.JS, st, pipeline.WithConcurrency(16), pipeline.WithLocal(local))
		}()
	}
	b.Cleanup(func() { cancel(); wg.Wait() })
	return env, newResultWaiter(b, env.JS)
}

// BenchmarkPipelineLatency: one output at a time through every stage on the
// embedded server; the intents run the builtin help tool, so the figures are
// the pipeline's own cost, not a tool's.
func BenchmarkPipelineLatency(b *testing.B) {
	for _, k := range []int{1, 5} {
		b.Run(fmt.Sprintf("intents=%d", k), func(b *testing.B) {
			env, w := benchEnv(b)
			roundTrip(b, env.JS, w, "bench", "warmup", k)
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				lat = append(lat, roundTrip(b, env.JS, w, "bench", fmt.Sprintf("m%d", i), k))
			}
			b.StopTimer()
			reportLatency(b, lat, k)
		})
	}
}

// BenchmarkPipelineThroughput: 32 outputs in flight at once.
func BenchmarkPipelineThroughput(b *testing.B) {
	const inFlight = 32
	for _, k := range []int{1, 5} {
		b.Run(fmt.Sprintf("intents=%d", k), func(b *testing.B) {
			env, w := benchEnv(b)
			inFlightRoundTrips(b, env.JS, w, inFlight, k)
		})
	}
}

// inFlightRoundTrips runs b.N outputs of k intents, inFlight at once over
// as many sessions, and reports their latency and throughput.
func inFlightRoundTrips(b *testing.B, js jetstream.JetStream, w *resultWaiter, inFlight, k int) {
	roundTrip(b, js, w, "bench", "warmup", k)
	var mu sync.Mutex
	lat := make([]time.Duration, 0, b.N)
	sem := make(chan struct{}, inFlight)
	var wg sync.WaitGroup
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sem <- struct{}{}
		wg.Add(1)
		go func(i int) {
			defer func() { <-sem; wg.Done() }()
			d := roundTrip(b, js, w, fmt.Sprintf("s%d", i%inFlight), fmt.Sprintf("m%d", i), k)
			mu.Lock()
			lat = append(lat, d)
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	b.StopTimer()
	reportLatency(b, lat, k)
}

func reportLatency(b *testing.B, lat []time.Duration, k int) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) float64 {
		return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(len(lat)*k)/b.Elapsed().Seconds(), "intents/s")
}

// unlimitedSessions turns the per-session rate and execution limits off: a
// benchmark sends one session's outputs as fast as the pipeline takes them,
// which is what it measures, not what an agent should do.
func unlimitedSessions() *stages.Limits {
	return &stages.Limits{SessionRate: -1, SessionExecutions: -1}
}
