package discover

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/discover/vecindex"
)

func newLocalFixture(t *testing.T) *Engine {
	t.Helper()
	emb, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	return newFixture(t, WithEmbedder(emb), WithMode(ModeHybrid))
}

// Users ask for the SQL tool in words its description does not use; the
// history of what they asked teaches discovery those words.
var learnedSQL = []LearnedIntent{
	{Tool: "db/run_sql_query", Text: "how did revenue develop per region this quarter"},
	{Tool: "db/run_sql_query", Text: "revenue by region for the last quarter"},
	{Tool: "db/run_sql_query", Text: "break revenue down by region and month"},
	{Tool: "weather/getForecast", Text: "will I need an umbrella in Paris tomorrow"},
}

func TestUsageTeachesUsersWords(t *testing.T) {
	ctx := context.Background()
	e := newLocalFixture(t)
	const request = "show me revenue per region"
	before, err := e.Search(ctx, request, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) > 0 && before[0].ToolID == "db/run_sql_query" {
		t.Fatalf("the fixture should not find the SQL tool for %q without history: %v", request, ids(before))
	}
	u := &Usage{Version: "v1", Intents: learnedSQL, Weights: UsageWeights{Text: 2, TextVote: 1, Near: 2, Vote: 1}}
	if err := e.SetUsage(ctx, u); err != nil {
		t.Fatal(err)
	}
	if e.UsageVersion() != "v1" {
		t.Errorf("UsageVersion %q", e.UsageVersion())
	}
	after, err := e.Search(ctx, request, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) == 0 || after[0].ToolID != "db/run_sql_query" {
		t.Fatalf("with the history the SQL tool should rank first for %q: %v", request, ids(after))
	}
	ex, err := e.Explain(ctx, request, 3)
	if err != nil {
		t.Fatal(err)
	}
	if ex[0].ToolID != "db/run_sql_query" || ex[0].Signals[FeatureUsageText] != 1 || ex[0].Signals[FeatureUsageNear] <= 0 || ex[0].Signals[FeatureUsageTextVote] <= 0 {
		t.Errorf("the top candidate's usage signals: %+v", ex[0])
	}
	for _, c := range ex[1:] {
		if c.ToolID != "weather/getForecast" && (c.Signals[FeatureUsageText] != 0 || c.Signals[FeatureUsageNear] != 0) {
			t.Errorf("%s has no history but usage signals %v", c.ToolID, c.Signals)
		}
	}

	// Removing the model restores the engine exactly.
	if err := e.SetUsage(ctx, nil); err != nil {
		t.Fatal(err)
	}
	again, err := e.Search(ctx, request, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, before) || e.UsageVersion() != "" {
		t.Errorf("after removing the model:\n got %+v\nwant %+v", again, before)
	}
}

// History about tools this registry does not hold changes no ranking and
// no confidence, although the model carries its own calibration.
func TestUsageWithoutHistoryForTheRegistryChangesNothing(t *testing.T) {
	ctx := context.Background()
	e := newLocalFixture(t)
	requests := []string{"how much disk space is left", "forecast for Oslo", "open an issue about the crash", "translate this to German", "hello there"}
	var before [][]string
	var conf [][]float64
	for _, r := range requests {
		cs, err := e.Search(ctx, r, 5, nil)
		if err != nil {
			t.Fatal(err)
		}
		before = append(before, ids(cs))
		conf = append(conf, confidencesOf(cs))
	}
	cal := DefaultCalibration()
	cal.Bias += 3 // a model that would change every confidence if it applied
	u := &Usage{Version: "other", Weights: UsageWeights{Text: 4, Near: 4, Vote: 4, TextVote: 4}, Calibration: &cal,
		Intents: []LearnedIntent{{Tool: "elsewhere/disk", Text: "how much disk space is left"}, {Tool: "elsewhere/wx", Text: "forecast for Oslo"}}}
	if err := e.SetUsage(ctx, u); err != nil {
		t.Fatal(err)
	}
	for i, r := range requests {
		cs, err := e.Search(ctx, r, 5, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ids(cs), before[i]) || !reflect.DeepEqual(confidencesOf(cs), conf[i]) {
			t.Errorf("%q: %v %v, want %v %v", r, ids(cs), confidencesOf(cs), before[i], conf[i])
		}
	}
}

func TestSetUsageRefusesBadModels(t *testing.T) {
	e := newLocalFixture(t)
	bad := DefaultCalibration()
	bad.Features = append(bad.Features, "no_such_signal")
	bad.Weights = append(bad.Weights, 1)
	for name, u := range map[string]*Usage{
		"negative weight":                   {Weights: UsageWeights{Near: -1}},
		"empty text":                        {Intents: []LearnedIntent{{Tool: "db/run_sql_query", Text: " "}}},
		"no tool":                           {Intents: []LearnedIntent{{Text: "revenue"}}},
		"bad calibration":                   {Calibration: &bad},
		"vector classifier without weights": {VectorClassifier: &VectorClassifier{Tools: []string{"db/run_sql_query"}, Dim: 100}},
		"vector classifier row too short":   {VectorClassifier: &VectorClassifier{Tools: []string{"db/run_sql_query"}, Dim: 2, W: [][]float32{{1, 2}}}},
		"vector classifier NaN weight":      {VectorClassifier: &VectorClassifier{Tools: []string{"db/run_sql_query"}, Dim: 1, W: [][]float32{{float32(math.NaN()), 0}}}},
		"vector classifier of another dimension": {Intents: learnedSQL,
			VectorClassifier: &VectorClassifier{Tools: []string{"db/run_sql_query"}, Dim: 3, W: [][]float32{{1, 0, 0, 0}}}},
	} {
		if err := e.SetUsage(context.Background(), u); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if e.UsageVersion() != "" {
		t.Errorf("a refused model is in force: %q", e.UsageVersion())
	}
}

func confidencesOf(cs []schemas.Candidate) []float64 {
	out := make([]float64, len(cs))
	for i, c := range cs {
		out[i] = c.Confidence
	}
	return out
}

// Past intents that score alike (the same matched words, the same length)
// are cut at the vote's k by id, not by the order bleve analysed them in:
// the same model built again votes the same.
func TestUsageVoteIsReproducible(t *testing.T) {
	ctx := context.Background()
	e := newLocalFixture(t)
	var intents []LearnedIntent
	for i, w := range []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"} {
		tool := "db/run_sql_query"
		if i%2 == 1 {
			tool = "weather/getForecast"
		}
		intents = append(intents, LearnedIntent{Tool: tool, Text: "revenue region " + w})
	}
	u := &Usage{Version: "v1", Intents: intents, Neighbours: 3, Weights: UsageWeights{TextVote: 1}}
	var first []map[string]float64
	for build := range 8 {
		if err := e.SetUsage(ctx, u); err != nil {
			t.Fatal(err)
		}
		ex, err := e.Explain(ctx, "revenue per region", 5)
		if err != nil {
			t.Fatal(err)
		}
		var votes []map[string]float64
		for _, c := range ex {
			votes = append(votes, map[string]float64{c.ToolID: c.Signals[FeatureUsageTextVote]})
		}
		if build == 0 {
			first = votes
			continue
		}
		if !reflect.DeepEqual(votes, first) {
			t.Fatalf("build %d votes %v, the first build %v", build, votes, first)
		}
	}
}

// Below the graph threshold the usage vote comes from one pass over the
// learned intents: its nearest are the exact vector index's, ties (here
// repeated vectors) broken by id the same way.
func TestUsageScanFindsTheIndexsNearest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n, dim, k = 3000, 24, 10
	random := func() []float32 {
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		return v
	}
	m := &usageModel{k: k, dim: dim, mat: make([]float32, n*dim), vec: make([][]float32, n)}
	idx, err := vecindex.NewExact(dim)
	if err != nil {
		t.Fatal(err)
	}
	raw := make([][]float32, n)
	for i := range n {
		raw[i] = random()
		if i%7 == 6 {
			raw[i] = raw[i-3] // equal cosines: the tie-break decides
		}
		if i%11 == 10 {
			continue // an intent without a vector
		}
		row := m.mat[i*dim : (i+1)*dim]
		copy(row, embed.Normalize(raw[i]))
		m.vec[i] = row
		if err := idx.Put(intentID(i), raw[i]); err != nil {
			t.Fatal(err)
		}
	}
	for range 100 {
		qv := random()
		// A query equal to a stored vector puts ties at the top too.
		if r.IntN(4) == 0 {
			qv = raw[r.IntN(n)]
		}
		got := m.nearest(m.cosines(embed.Normalize(qv)))
		want, err := idx.Search(qv, k, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%d nearest, the index found %d", len(got), len(want))
		}
		for i := range want {
			if got[i].id != want[i].ID || math.Abs(got[i].score-float64(want[i].Score)) > 1e-6 {
				t.Fatalf("nearest %d: %s %.7f, the index's %s %.7f", i, got[i].id, got[i].score, want[i].ID, want[i].Score)
			}
		}
	}
}

// LearnedVectors gives the vectors SetUsage then puts in force, without
// putting anything in force itself.
func TestLearnedVectorsAreThoseSetUsageUses(t *testing.T) {
	ctx := context.Background()
	e := newLocalFixture(t)
	u := &Usage{Version: "v", Intents: learnedSQL}
	vs, err := e.LearnedVectors(ctx, u)
	if err != nil || vs == nil || len(vs.Vectors) != len(learnedSQL) || vs.Dim == 0 {
		t.Fatalf("LearnedVectors: %+v, %v", vs, err)
	}
	if e.UsageVersion() != "" {
		t.Fatalf("LearnedVectors put a model in force: %q", e.UsageVersion())
	}
	if err := e.SetUsage(ctx, u); err != nil {
		t.Fatal(err)
	}
	if got := e.UsageVectors(); got == nil || !reflect.DeepEqual(got.Vectors, vs.Vectors) || got.Encoder != vs.Encoder {
		t.Errorf("in force %+v, LearnedVectors gave %+v", got, vs)
	}
	if vs, err := e.LearnedVectors(ctx, &Usage{}); vs != nil || err != nil {
		t.Errorf("no intents: %+v, %v", vs, err)
	}
}
