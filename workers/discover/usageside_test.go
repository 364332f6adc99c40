package discover

import (
	"context"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/workers/discover/embed"
)

// usageNearOf is the usage_near signal of tool for request under u.
func usageNearOf(t *testing.T, e *Engine, u *Usage, request, tool string) float64 {
	t.Helper()
	ctx := context.Background()
	if err := e.SetUsage(ctx, u); err != nil {
		t.Fatal(err)
	}
	defer e.SetUsage(ctx, nil)
	ex, err := e.Explain(ctx, request, 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ex {
		if c.ToolID == tool {
			return c.Signals[FeatureUsageNear]
		}
	}
	t.Fatalf("%s not among the candidates for %q", tool, request)
	return 0
}

// cosineBy is the cosine of two texts by an embedder.
func cosineBy(t *testing.T, emb embed.Embedder, a, b string) float64 {
	t.Helper()
	va, err := emb.EmbedQuery(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	vb, err := emb.EmbedQuery(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	return float64(dot(embed.Normalize(va), embed.Normalize(vb)))
}

// A model says which embedder its learned intents were embedded by, and
// the engine embeds them (and the request) with that one: the sentence
// encoder on the usage side alone of an engine that searches the registry
// without it, the word vectors on an engine that has the encoder too, and
// for a model that names none (before the field) the engine's own.
func TestUsageEncoderIsTheModels(t *testing.T) {
	words, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	enc, err := embed.NewUSELite()
	if err != nil {
		evaltest.Unavailable(t, "sentence encoder (make embeddings)", err)
	}
	plain := newFixture(t, WithEmbedder(words), WithMode(ModeHybrid))
	withEnc := newFixture(t, WithEmbedder(words), WithEncoder(enc), WithMode(ModeHybrid))
	const request, intent = "what did we earn in each area over the past three months", "revenue by region for the last quarter"
	const tool = "db/run_sql_query"
	model := func(side string) *Usage {
		return &Usage{Version: "v", Encoder: side, Intents: []LearnedIntent{{Tool: tool, Text: intent}}, Weights: UsageWeights{Near: 4, Vote: 4}}
	}
	byWords, byEnc := cosineBy(t, words, request, intent), cosineBy(t, enc, request, intent)
	if math.Abs(byWords-byEnc) < 0.05 {
		t.Fatalf("the two embedders should disagree on the pair: words %.3f, encoder %.3f", byWords, byEnc)
	}
	for _, c := range []struct {
		name   string
		engine *Engine
		side   string
		want   float64
	}{
		{"encoder on the usage side only", plain, enc.ID(), byEnc},
		{"word vectors, engine without encoder", plain, words.ID(), byWords},
		{"word vectors, engine with encoder", withEnc, words.ID(), byWords},
		{"encoder, engine with encoder", withEnc, enc.ID(), byEnc},
		{"unrecorded, engine without encoder", plain, "", byWords},
		{"unrecorded, engine with encoder", withEnc, "", byEnc},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := usageNearOf(t, c.engine, model(c.side), request, tool); math.Abs(got-c.want) > 1e-4 {
				t.Errorf("usage_near %.4f, want %.4f", got, c.want)
			}
		})
	}
	if got, want := plain.UsageEncoder(), words.ID(); got != want {
		t.Errorf("UsageEncoder of an engine without encoder %q, want %q", got, want)
	}
	if got, want := withEnc.UsageEncoder(), enc.ID(); got != want {
		t.Errorf("UsageEncoder of an engine with encoder %q, want %q", got, want)
	}
}

// A model whose embedder this engine cannot embed with is refused with an
// error naming it, and the model in force stays.
func TestUsageEncoderUnavailableIsRefused(t *testing.T) {
	e := newLocalFixture(t)
	ctx := context.Background()
	if err := e.SetUsage(ctx, &Usage{Version: "good", Intents: learnedSQL}); err != nil {
		t.Fatal(err)
	}
	const side = "use-lite:some-other-build:0000beef:text=description"
	err := e.SetUsage(ctx, &Usage{Version: "bad", Encoder: side, Intents: learnedSQL})
	if err == nil || !strings.Contains(err.Error(), side) {
		t.Fatalf("SetUsage of a model embedded by %q: %v, want an error naming it", side, err)
	}
	if v := e.UsageVersion(); v != "good" {
		t.Errorf("model in force %q after a refused one, want good", v)
	}
}

// Training names the usage side's embedder: the engine's by default, the
// word vectors, or an encoder by name; an unknown name is an error.
func TestUsageEmbedderID(t *testing.T) {
	e := newLocalFixture(t)
	words := e.vec.emb.ID()
	enc, encErr := embed.NewUSELite()
	for _, c := range []struct {
		name, want string
		wantErr    bool
	}{
		{"", words, false},
		{"words", words, false},
		{"none", words, false},
		{"no-such-encoder", "", true},
	} {
		got, err := e.UsageEmbedderID(c.name)
		if (err != nil) != c.wantErr || got != c.want {
			t.Errorf("UsageEmbedderID(%q) = %q, %v; want %q (error %v)", c.name, got, err, c.want, c.wantErr)
		}
	}
	if encErr == nil {
		if got, err := e.UsageEmbedderID("use-lite"); err != nil || got != enc.ID() {
			t.Errorf("UsageEmbedderID(use-lite) = %q, %v; want %q", got, err, enc.ID())
		}
	}
}

// A usage-encoder model with no history for this registry's tools ranks
// and calibrates exactly as no model (and, usageQuery, skips the encoding).
func TestUsageEncoderWithoutHistoryForTheRegistryChangesNothing(t *testing.T) {
	enc, err := embed.NewUSELite()
	if err != nil {
		evaltest.Unavailable(t, "sentence encoder (make embeddings)", err)
	}
	e := newLocalFixture(t)
	ctx := context.Background()
	requests := []string{"how much disk space is left", "forecast for Oslo", "open an issue about the crash"}
	var before [][]float64
	var order [][]string
	for _, r := range requests {
		cs, err := e.Search(ctx, r, 5, nil)
		if err != nil {
			t.Fatal(err)
		}
		order, before = append(order, ids(cs)), append(before, confidencesOf(cs))
	}
	u := &Usage{Version: "elsewhere", Encoder: enc.ID(), Weights: UsageWeights{Near: 4, Vote: 4},
		Intents: []LearnedIntent{{Tool: "elsewhere/disk", Text: "how much disk space is left"}, {Tool: "elsewhere/wx", Text: "forecast for Oslo"}}}
	if err := e.SetUsage(ctx, u); err != nil {
		t.Fatal(err)
	}
	if m := e.usage.Load(); e.hasHistory(m) {
		t.Fatal("hasHistory: no registry tool has learned intents")
	}
	for i, r := range requests {
		cs, err := e.Search(ctx, r, 5, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ids(cs), order[i]) || !slices.Equal(confidencesOf(cs), before[i]) {
			t.Errorf("%q: %v %v, want %v %v", r, ids(cs), confidencesOf(cs), order[i], before[i])
		}
	}
}

// A usage-encoder version put in force after another reuses the encoder
// vectors of the intents they share (TestEmbedDistinctEmbedsEachNewTextOnce),
// and ranks exactly as the same version put in force alone.
func TestUsageEncoderVectorsCarryOver(t *testing.T) {
	enc, err := embed.NewUSELite()
	if err != nil {
		evaltest.Unavailable(t, "sentence encoder (make embeddings)", err)
	}
	ctx := context.Background()
	older := &Usage{Version: "v1", Encoder: enc.ID(), Weights: UsageWeights{Text: 1, Near: 4, Vote: 2}, Intents: learnedSQL[:2]}
	newer := &Usage{Version: "v2", Encoder: enc.ID(), Weights: UsageWeights{Text: 1, Near: 4, Vote: 2}, Intents: learnedSQL}
	after := newLocalFixture(t)
	if err := after.SetUsage(ctx, older); err != nil {
		t.Fatal(err)
	}
	if err := after.SetUsage(ctx, newer); err != nil {
		t.Fatal(err)
	}
	alone := newLocalFixture(t)
	if err := alone.SetUsage(ctx, newer); err != nil {
		t.Fatal(err)
	}
	shared, fresh := after.usage.Load(), alone.usage.Load()
	if &shared.vec[0][0] == &fresh.vec[0][0] {
		t.Fatal("the fixtures share vectors")
	}
	for i := range 2 {
		if !slices.Equal(shared.vec[i], fresh.vec[i]) {
			t.Errorf("intent %d: carried-over vector differs from a fresh one", i)
		}
	}
	for _, r := range []string{"what did we earn in each area over the past three months", "should I take a raincoat to Berlin"} {
		a, err := after.Explain(ctx, r, 10)
		if err != nil {
			t.Fatal(err)
		}
		b, err := alone.Explain(ctx, r, 10)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%q: ranked differently after another version than alone:\n%+v\n%+v", r, a, b)
		}
	}
}

// countingEmbedder counts the texts it embeds.
type countingEmbedder struct {
	embed.Embedder
	mu    sync.Mutex
	texts []string
}

func (c *countingEmbedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	c.mu.Lock()
	c.texts = append(c.texts, text)
	c.mu.Unlock()
	return c.Embedder.EmbedQuery(ctx, text)
}

// Learned intents are embedded once per distinct text, and not at all when
// the version in force embedded them with the same embedder.
func TestEmbedDistinctEmbedsEachNewTextOnce(t *testing.T) {
	local, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	c := &countingEmbedder{Embedder: local}
	intents := []LearnedIntent{{Tool: "a", Text: "list the files"}, {Tool: "b", Text: "list the files"},
		{Tool: "a", Text: "show the weather"}, {Tool: "c", Text: "convert the currency"}}
	known := map[string][]float32{"show the weather": {1, 0}}
	got, err := embedDistinct(context.Background(), &vectors{emb: c}, intents, known)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(c.texts)
	if want := []string{"convert the currency", "list the files"}; !slices.Equal(c.texts, want) {
		t.Errorf("embedded %q, want %q", c.texts, want)
	}
	if len(got) != 2 || got["list the files"] == nil || got["convert the currency"] == nil {
		t.Errorf("vectors for %d texts: %v", len(got), slices.Collect(maps.Keys(got)))
	}
}

// A model carrying its intents' vectors (a stored version) is put in force
// with them: nothing is embedded again. Vectors of another dimension than
// the encoder's are refused.
func TestStoredUsageVectorsAreUsed(t *testing.T) {
	enc, err := embed.NewUSELite()
	if err != nil {
		evaltest.Unavailable(t, "sentence encoder (make embeddings)", err)
	}
	ctx := context.Background()
	probe, err := enc.EmbedQuery(ctx, "probe")
	if err != nil {
		t.Fatal(err)
	}
	dim := len(probe)
	// A vector no text embeds to: it can only have come from storage.
	mark := make([]float32, dim)
	mark[0] = 1
	e := newLocalFixture(t)
	u := &Usage{Version: "stored", Encoder: enc.ID(), Weights: UsageWeights{Near: 4, Vote: 2}, Intents: learnedSQL[:2],
		Vectors: &UsageVectors{Encoder: enc.ID(), Dim: dim, Vectors: [][]float32{mark, nil}}}
	if err := e.SetUsage(ctx, u); err != nil {
		t.Fatal(err)
	}
	m := e.usage.Load()
	if !slices.Equal(m.vec[0], mark) {
		t.Error("the stored vector of intent 0 was not used")
	}
	if m.vec[1] == nil || slices.Equal(m.vec[1], mark) {
		t.Error("intent 1, stored without a vector, was not embedded")
	}
	bad := *u
	bad.Vectors = &UsageVectors{Encoder: enc.ID(), Dim: 3, Vectors: [][]float32{{1, 0, 0}, {0, 1, 0}}}
	if err := newLocalFixture(t).SetUsage(ctx, &bad); err == nil || !strings.Contains(err.Error(), "dimensions") {
		t.Errorf("vectors of 3 dimensions for a %d-dimension encoder: %v", dim, err)
	}
}

// A model whose learned intents the build's own word vectors embedded
// serves an engine whose registry side is another embedder (a remote one,
// here a fake): its usage side embeds with the word vectors, as trained.
func TestWordVectorModelOnAnotherEmbedder(t *testing.T) {
	local, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	remote := &fakeEmbedder{}
	e := newHybrid(t, remote)
	ctx := context.Background()
	if err := e.SetUsage(ctx, &Usage{Version: "words", Encoder: local.ID(), Intents: learnedSQL}); err != nil {
		t.Fatalf("a word-vector model on an engine of another embedder: %v", err)
	}
	ex, err := e.Explain(ctx, learnedSQL[1].Text, 5)
	if err != nil {
		t.Fatal(err)
	}
	var near float64
	for _, c := range ex {
		if c.ToolID == learnedSQL[1].Tool {
			near = c.Signals[FeatureUsageNear]
		}
	}
	if near < 0.99 {
		t.Errorf("a request equal to a learned intent: usage_near %v, want about 1 (the word vectors' cosine)", near)
	}
}
