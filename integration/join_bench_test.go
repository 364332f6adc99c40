package integration

import (
	"context"
	"sync"
	"testing"

	"github.com/toolyard/toolyard/ops/sample"
	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/bench"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
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
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			runBench(b, env.JS, bench.WithIntents(2*b.N), bench.WithOutputText(c.text, 2), bench.WithInFlight(1))
		})
	}
}
