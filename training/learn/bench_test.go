package learn

import (
	"context"
	"fmt"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/discover/synth"
)

// syntheticAudit is n imported-history records over tools: each a request
// in words of its own for a random tool, from one of n/5 sessions.
func syntheticAudit(tools []schemas.Manifest, n int) []schemas.AuditRecord {
	r := rand.New(rand.NewPCG(7, 11))
	verbs := []string{"please", "could you", "I need to", "go and", "help me"}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	out := make([]schemas.AuditRecord, n)
	for i := range out {
		m := tools[r.IntN(len(tools))]
		parts := strings.Split(m.Name, "_")
		text := fmt.Sprintf("%s %s the %s %s soon %d", verbs[r.IntN(len(verbs))], parts[0], parts[len(parts)-1], m.Server, r.IntN(50))
		out[i] = schemas.AuditRecord{Timestamp: t0.Add(time.Duration(i) * time.Second), SessionID: fmt.Sprintf("s%d", r.IntN(max(1, n/5))),
			IntentExpressed: "[TOOL: " + text + "]", ToolID: m.ID, Result: "success"}
	}
	return out
}

// Training time and memory at scale: go test -run '^$' -bench Train -benchtime 1x ./training/learn/
// (with /usr/bin/time -v for the peak resident memory).
func BenchmarkTrain(b *testing.B) {
	emb, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(b, "word vectors (make embeddings)", err)
	}
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		if testing.Short() && n > 10_000 {
			break
		}
		b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
			tools := synth.Tools(1000, 1)
			e, err := discover.New(tools, discover.WithEmbedder(emb), discover.WithMode(discover.ModeHybrid))
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			recs := syntheticAudit(tools, n)
			b.ResetTimer()
			for b.Loop() {
				bd, rep, err := Train(context.Background(), e, recs, Options{})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(len(bd.Usage.Intents)), "intents")
				b.ReportMetric(rep.After.HitAt1, "hit@1")
			}
		})
	}
}
