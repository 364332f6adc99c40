package discover

import (
	"context"
	"slices"
	"testing"

	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/workers/discover/embed"
)

// Helpers of the tests that rank the benchmarks with the hybrid engine.
// The fitting experiments that used to live beside them are commands now:
// toolyard train calibration (training/fit).

func (e *Engine) explainPool(t testing.TB, text string) []*pooled {
	q, qv, qe := e.testQuery(t, text)
	e.mu.RLock()
	defer e.mu.RUnlock()
	ps, err := e.pooledRanking(context.Background(), q, vectorsOf{qv: qv, qe: qe}, 10, ModeHybrid, e.admit(Filter{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// testQuery is what a hybrid search of text starts from: the parsed
// query, its word-vector query vector and, with an encoder, the encoder's.
func (e *Engine) testQuery(t testing.TB, text string) (parsedQuery, []float32, [][]float32) {
	t.Helper()
	ctx := context.Background()
	q := e.parse(text)
	qv, err := e.vec.query(ctx, e.vectorText(q, text, ModeHybrid))
	if err != nil {
		t.Fatal(err)
	}
	var qe [][]float32
	if e.enc != nil {
		if qe, err = e.enc.queries(ctx, text); err != nil {
			t.Fatal(err)
		}
	}
	return q, qv, qe
}

// hybridBench is the hybrid engine over a benchmark registry and its dev
// queries.
func hybridBench(t *testing.T, set string) (*Engine, []benchQuery) {
	emb := needVectors(t)
	tools := loadTools(t, needBench(t, set, "tools.jsonl"))
	e, err := New(tools, WithEmbedder(emb))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e, loadQueries(t, needBench(t, set, "queries.dev.jsonl"))
}

// needVectors is the local embedder over the compiled-in word vectors:
// without them the test fails in CI and is skipped elsewhere, saying why.
func needVectors(t testing.TB) embed.Embedder {
	t.Helper()
	emb, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	return emb
}

func hitRecall(qs []benchQuery, ranked [][]string) (float64, float64) {
	var h, r float64
	for i, q := range qs {
		if len(ranked[i]) > 0 && slices.Contains(q.GoldToolIDs, ranked[i][0]) {
			h++
		}
		found := 0
		for _, id := range ranked[i][:min(5, len(ranked[i]))] {
			if slices.Contains(q.GoldToolIDs, id) {
				found++
			}
		}
		r += float64(found) / float64(len(q.GoldToolIDs))
	}
	return h / float64(len(qs)), r / float64(len(qs))
}

// ece and auroc are the eval report's (10 equal-width bins).
func ece(conf []float64, right []bool) float64 { return eval.ECE(conf, right, 10) }

func auroc(score []float64, pos []bool) float64 { return eval.AUROC(score, pos) }
