package discover

import (
	"context"
	"math"
	"testing"

	"github.com/toolyard/toolyard/workers/discover/embed"
)

func TestSoftmaxSumsToOneAndFollowsTheScores(t *testing.T) {
	w := [][]float32{{1, 0, 0}, {0, 1, 0}, {0, 0, 2}} // two weights and a bias each
	p := Softmax(w, []float32{0.6, 0.8}, nil)
	sum := 0.0
	for _, v := range p {
		sum += v
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Fatalf("probabilities %v sum to %v", p, sum)
	}
	// scores 0.6, 0.8 and the bias 2
	if !(p[2] > p[1] && p[1] > p[0]) {
		t.Errorf("probabilities %v do not follow the scores 0.6, 0.8, 2", p)
	}
	if got := (&VectorClassifier{Dim: 3, Tools: []string{"a"}, W: [][]float32{{1, 1, 1, 0}}}).probabilities([]float32{1, 0}); got != nil {
		t.Errorf("a request vector of another dimension got %v", got)
	}
}

// The vector classifier's word alone brings a tool into the pool and lifts
// it: a request in none of the SQL tool's words or learned intents' words,
// whose direction the classifier was given for that tool.
func TestVectorClassifierSignal(t *testing.T) {
	ctx := context.Background()
	e := newLocalFixture(t)
	const request = "tally the takings"
	qv, err := e.vec.query(ctx, request)
	if err != nil || qv == nil {
		t.Fatalf("embed %q: %v", request, err)
	}
	before, err := e.Search(ctx, request, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) > 0 && before[0].ToolID == "db/run_sql_query" {
		t.Fatalf("the fixture should not find the SQL tool for %q without the classifier: %v", request, ids(before))
	}
	uq := embed.Normalize(qv)
	row := func(scale float32) []float32 {
		out := make([]float32, len(uq)+1)
		for j, v := range uq {
			out[j] = scale * v
		}
		return out
	}
	u := &Usage{Version: "v", Intents: learnedSQL, Weights: UsageWeights{VectorClass: 8},
		VectorClassifier: &VectorClassifier{Tools: []string{"db/run_sql_query", "weather/getForecast"}, Dim: len(uq),
			W: [][]float32{row(10), row(-10)}}}
	if err := e.SetUsage(ctx, u); err != nil {
		t.Fatal(err)
	}
	ex, err := e.Explain(ctx, request, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex) == 0 || ex[0].ToolID != "db/run_sql_query" {
		t.Fatalf("the classifier's tool should rank first: %+v", ex)
	}
	if p := ex[0].Signals[FeatureUsageVectorClass]; p < 0.99 {
		t.Errorf("usage_vector_class %v, want about 1 (cosine 1 at scale 10 against -10)", p)
	}
	for _, c := range ex[1:] {
		if c.ToolID != "weather/getForecast" && c.Signals[FeatureUsageVectorClass] != 0 {
			t.Errorf("%s has no history but usage_vector_class %v", c.ToolID, c.Signals[FeatureUsageVectorClass])
		}
	}
}
