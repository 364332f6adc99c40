package prefetch

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/predict"
	"github.com/toolyard/toolyard/workers/route"
)

// The engine here embeds through DelayedOllamaServer with langchaingo's
// Ollama client: the remote path the command measures, on a tiny registry.
func TestPrefetchThroughDelayedOllamaServer(t *testing.T) {
	local, err := embed.NewLocal()
	if err != nil {
		t.Skipf("local vectors not built: %v", err)
	}
	srv, err := StartDelayedOllamaServer(local, "m")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	remote, err := embed.New(ctx, embed.Config{Provider: embed.ProviderOllama, Model: "m", URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	// The server answers with the local vectors, normalized by the client.
	want, _ := local.EmbedQuery(ctx, "print the quarterly report")
	got, err := remote.EmbedQuery(ctx, "print the quarterly report")
	if err != nil || cosine32(got, want) < 0.999 {
		t.Fatalf("remote vector off the local one: cosine %.4f, err %v", cosine32(got, want), err)
	}
	tools := []schemas.Manifest{
		{ID: "printer", Description: "Print a document on the office printer", Keywords: []string{"print", "printer", "paper"}},
		{ID: "weather", Description: "Weather forecast for a city: temperature, rain, wind", Keywords: []string{"weather", "forecast"}},
		{ID: "mail", Description: "Send an email message to someone", Keywords: []string{"email", "mail", "send"}},
	}
	engine, err := discover.New(tools, discover.WithEmbedder(remote), discover.WithMode(discover.ModeHybrid), discover.WithRequestCache(0))
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	srv.SetDelay(20 * time.Millisecond)
	qs := []eval.Query{
		{ID: "q1", Query: "Will it rain in Bergen tomorrow?"},
		{ID: "q2", Query: "Could you print my boarding pass."},
		{ID: "q3", Query: "send a short note to the whole team"}, // no sentence end: a miss
	}
	local2 := func(s string) []float32 { v, _ := local.EmbedQuery(ctx, s); return v }
	cases := []struct {
		name                    string
		rule                    predict.Rule
		opts                    []predict.Option
		hitsAtLeast, hitsAtMost int
	}{
		{"exact words: the sentence ends hit, never wrong", predict.DefaultRule(), []predict.Option{predict.WithWordPrefixes(false)}, 2, 2},
		{"any missing words: every intent has a prediction", predict.Rule{MinCosine: 0.8, MaxMissingWords: -1}, []predict.Option{predict.WithDebounce(0)}, 2, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err := Simulate(ctx, engine, qs, Config{TokensPerSecond: 200, Concurrency: 3, Thresholds: route.DefaultThresholds(),
				Predictor: c.opts, Rule: c.rule, Lead: "One moment. ", Vectorizer: local2})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Intents != 3 || rep.Hits < c.hitsAtLeast || rep.Hits > c.hitsAtMost || rep.Predictions < rep.Hits {
				t.Errorf("report %+v", rep)
			}
			if c.rule.MaxMissingWords == 0 && rep.WrongHits != 0 {
				t.Errorf("%d wrong hits with the exact-words rule", rep.WrongHits)
			}
			if rep.P50WithoutMS < 20 {
				t.Errorf("a fresh search took %.1f ms, less than the server's delay", rep.P50WithoutMS)
			}
		})
	}
}

func cosine32(a, b []float32) float64 {
	var d, x, y float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
		x += float64(a[i]) * float64(a[i])
		y += float64(b[i]) * float64(b[i])
	}
	return d / math.Sqrt(x*y)
}
