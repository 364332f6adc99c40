package replay

import (
	"context"
	"testing"

	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/training/learn"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/route"
	"github.com/toolyard/toolyard/workers/stages"
)

// BenchmarkReplayMetatool replays the MetaTool learning history (default
// hybrid discovery, one side) on every core; intents/s is the figure.
func BenchmarkReplayMetatool(b *testing.B) {
	tools, err := registry.LoadFile(evaltest.Path(b, "metatool", "tools.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	recs, _, err := learn.ReadAuditFile(evaltest.Path(b, "metatool", "learn", "audit.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	e, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(b, "word vectors (make embeddings)", err)
	}
	th := route.DefaultThresholds()
	set, err := stages.New(stages.Config{Tools: tools, Thresholds: th, Discover: []discover.Option{discover.WithMode(discover.ModeHybrid), discover.WithEmbedder(e)}})
	if err != nil {
		b.Fatal(err)
	}
	side, err := NewSide("candidate", set, th)
	if err != nil {
		b.Fatal(err)
	}
	intents, _ := Extract(recs)
	b.ResetTimer()
	for range b.N {
		if _, err := Run(context.Background(), intents, nil, side, RunOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(intents)*b.N)/b.Elapsed().Seconds(), "intents/s")
}
