package embed

import (
	"context"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"testing"
)

// TestRetrievalDev measures vector-only retrieval (exact cosine over every
// tool) on the dev benchmarks and guards against regressions with floors a
// little under the measured values (README.md has the full table). It
// skips, naming what is missing, without the benchmarks or the vectors.
func TestRetrievalDev(t *testing.T) {
	l := needLocal(t)
	for _, tc := range []struct {
		set     string
		bm25    scores // the bench README's plain BM25, for the log
		minHit1 float64
		minR5   float64
	}{
		{"metatool", scores{hit1: 0.374, r5: 0.545}, 0.33, 0.54},
		{"sealtools", scores{hit1: 0.861, r5: 0.832}, 0.58, 0.51},
	} {
		t.Run(tc.set, func(t *testing.T) {
			set := loadSet(t, tc.set)
			got := evaluate(t, l, set, ToolText)
			t.Logf("%s (%d queries, %d tools): vectors %v; plain BM25 hit@1 %.3f recall@5 %.3f",
				tc.set, len(set.queries), len(set.tools), got, tc.bm25.hit1, tc.bm25.r5)
			if got.hit1 < tc.minHit1 || got.r5 < tc.minR5 {
				t.Errorf("below the floor (hit@1 %.2f, recall@5 %.2f): %v", tc.minHit1, tc.minR5, got)
			}
		})
	}
}

// TestLocalRealVectors checks the compiled-in vectors behave like word
// vectors: related words near, unrelated far, identifiers understood.
func TestLocalRealVectors(t *testing.T) {
	l := needLocal(t)
	for _, tc := range []struct{ query, near, far string }{
		{"will it rain tomorrow", "weather forecast for a city", "convert currency amounts"},
		{"scrape google maps for companies", "googleMapsScraper", "send_email_message"},
		{"translate this into French", "language translation service", "stock price lookup"},
		{"book a table for dinner", "RestaurantBookingTool", "CurrencyConverter"},
	} {
		q, near, far := embedQuery(t, l, tc.query), embedQuery(t, l, tc.near), embedQuery(t, l, tc.far)
		if dot(q, near) <= dot(q, far) {
			t.Errorf("%q: cosine to %q %.3f not above %q %.3f", tc.query, tc.near, dot(q, near), tc.far, dot(q, far))
		}
	}
}

func BenchmarkEmbedQuery(b *testing.B) {
	l := needLocal(b)
	ctx := context.Background()
	q := "run the google maps scraper for tech companies in Berlin, limit 50"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := l.EmbedQuery(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmbedTools embeds the 4,076 Seal-Tools manifests (with their
// parameters) without a cache and reports tools per second.
func BenchmarkEmbedTools(b *testing.B) {
	l := needLocal(b)
	tools := loadSet(b, "sealtools").tools
	ctx := context.Background()
	for b.Loop() {
		if _, err := EmbedTools(ctx, l, nil, tools); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(tools)*b.N)/b.Elapsed().Seconds(), "tools/s")
}

// BenchmarkLoad parses the compiled-in vector file and builds its lookup
// table: the one-time cost of the first local embedder in a process.
func BenchmarkLoad(b *testing.B) {
	data, err := dataFS.ReadFile(vectorsPath)
	if err != nil {
		evaltest.Unavailable(b, "word vectors (make embeddings)", err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := newModel(data); err != nil {
			b.Fatal(err)
		}
	}
}
