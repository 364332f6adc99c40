package integration

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/bench"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/stages"
)

// benchEnv starts an embedded server and every stage in this process, as
// 'up' runs them (--local-handoff).
func benchEnv(b *testing.B) *pipelinetest.Env {
	env := pipelinetest.Start(b)
	set, err := stages.New(stages.Config{Limits: unlimitedSessions()})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	local := pipeline.NewLocal()
	for _, name := range bind.Stages {
		st, _ := set.Stage(name)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = pipeline.Run(ctx, env.JS, st, pipeline.WithConcurrency(16), pipeline.WithLocal(local))
		}()
	}
	b.Cleanup(func() { cancel(); wg.Wait() })
	return env
}

// BenchmarkPipelineLatency: one output at a time through every stage on the
// embedded server; the intents run the builtin help tool, so the figures are
// the pipeline's own cost, not a tool's.
func BenchmarkPipelineLatency(b *testing.B) { benchPipeline(b, 1) }

// BenchmarkPipelineThroughput: 32 outputs in flight at once.
func BenchmarkPipelineThroughput(b *testing.B) { benchPipeline(b, 32) }

// benchPipeline runs b.N outputs of k intents (k = 1 and 5), inFlight at
// once.
func benchPipeline(b *testing.B, inFlight int) {
	for _, k := range []int{1, 5} {
		b.Run(fmt.Sprintf("intents=%d", k), func(b *testing.B) {
			env := benchEnv(b)
			runBench(b, env.JS, bench.WithIntents(b.N*k), bench.WithIntentsPerOutput(k), bench.WithInFlight(inFlight))
		})
	}
}

// runBench runs pipeline/bench (what 'toolyard bench pipeline' runs) with
// opts, timed, and reports its latency per output and its throughput.
func runBench(b *testing.B, js jetstream.JetStream, opts ...bench.Option) {
	b.ResetTimer()
	rep, err := bench.Pipeline(context.Background(), js, opts...)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(rep.P50MS, "p50-ms")
	b.ReportMetric(rep.P99MS, "p99-ms")
	b.ReportMetric(rep.IntentsPerS, "intents/s")
}

// unlimitedSessions turns the per-session rate and execution limits off: a
// benchmark sends one session's outputs as fast as the pipeline takes them,
// which is what it measures, not what an agent should do.
func unlimitedSessions() *stages.Limits {
	return &stages.Limits{SessionRate: -1, SessionExecutions: -1}
}
