package discover

import (
	"context"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/discover/vecindex"
)

// newEncoderFixture is the fixture registry with the local word vectors and
// the USE-lite sentence encoder, both real.
func newEncoderFixture(t *testing.T) *Engine {
	t.Helper()
	emb, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	enc, err := embed.NewUSELite()
	if err != nil {
		evaltest.Unavailable(t, "sentence encoder (make embeddings)", err)
	}
	return newFixture(t, WithEmbedder(emb), WithEncoder(enc), WithMode(ModeHybrid))
}

func TestEncoderAddsFusedTerm(t *testing.T) {
	e := newEncoderFixture(t)
	ctx := context.Background()
	text := "how much room is left on my hard disk"
	q, qv, qe := e.testQuery(t, text)
	if len(qe) != 1 {
		t.Fatalf("%d encoder query vectors, want 1", len(qe))
	}
	e.mu.RLock()
	without, err := e.pooledRanking(ctx, q, vectorsOf{qv: qv}, 10, ModeHybrid, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	with, err := e.pooledRanking(ctx, q, vectorsOf{qv: qv, qe: qe}, 10, ModeHybrid, nil, nil)
	e.mu.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
	if with[0].en.cand.ToolID != "system/disk_usage" {
		t.Errorf("top with encoder = %s, want system/disk_usage", with[0].en.cand.ToolID)
	}
	fusedWithout := map[string]float64{}
	for _, p := range without {
		fusedWithout[p.en.cand.ToolID] = p.fused
	}
	lo, hi := with[0].encCosine, with[0].encCosine
	for _, p := range with {
		lo, hi = min(lo, p.encCosine), max(hi, p.encCosine)
	}
	for _, p := range with {
		if p.encCosine == 0 {
			t.Errorf("%s: encoder cosine 0: every pooled tool needs its encoder cosine", p.en.cand.ToolID)
		}
		base, ok := fusedWithout[p.en.cand.ToolID]
		if !ok {
			continue // proposed by the encoder alone
		}
		if want := base + (p.encCosine-lo)/(hi-lo); math.Abs(p.fused-want) > 1e-9 {
			t.Errorf("%s: fused %v, want %v (without encoder) + min-max encoder cosine = %v", p.en.cand.ToolID, p.fused, base, want)
		}
	}
}

func TestEncoderFollowsRegistryUpdates(t *testing.T) {
	e := newEncoderFixture(t)
	ctx := context.Background()
	added := schemas.Manifest{ID: "pets/adopt_a_dog", Name: "adopt_a_dog", Description: "Find puppies and dogs waiting for adoption at shelters near you."}
	if err := e.Put(added); err != nil {
		t.Fatal(err)
	}
	if hs, err := e.enc.search(mustEncode(t, e, "I would like to give a home to a rescue puppy"), 1, nil); err != nil || len(hs) == 0 || hs[0].ID != added.ID {
		t.Fatalf("encoder index after Put: %v, %v; want %s first", hs, err, added.ID)
	}
	if err := e.Remove(added.ID); err != nil {
		t.Fatal(err)
	}
	cs, err := e.Search(ctx, "I would like to give a home to a rescue puppy", 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(ids(cs), added.ID) {
		t.Errorf("removed tool %s still found: %v", added.ID, ids(cs))
	}
	hs, err := e.enc.search(mustEncode(t, e, "rescue puppy"), 20, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hs {
		if h.ID == added.ID {
			t.Errorf("removed tool %s still in the encoder index", added.ID)
		}
	}
}

func mustEncode(t *testing.T, e *Engine, text string) []float32 {
	t.Helper()
	v, err := e.enc.query(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A request in parts: every pooled tool's encoder cosine is its best to the
// whole request or to any part, so each part's tool is close to the request.
func TestEncoderReadsRequestInParts(t *testing.T) {
	e := newEncoderFixture(t)
	parts := []string{"What will the weather be like in Lisbon this weekend?", "Also open a ticket about the broken login page in our repo."}
	text := strings.Join(parts, " ")
	if _, _, qe := e.testQuery(t, text); len(qe) != 3 {
		t.Fatalf("%d encoder query vectors, want the whole request and its 2 parts", len(qe))
	}
	ps := e.explainPool(t, text)
	vectors := [][]float32{mustEncode(t, e, text), mustEncode(t, e, parts[0]), mustEncode(t, e, parts[1])}
	top := map[string]bool{}
	var fromPart []string
	for i, p := range ps {
		if i < 3 {
			top[p.en.cand.ToolID] = true
		}
		hs, err := e.enc.search(vectors[0], 1, vecindex.IDs(p.en.cand.ToolID))
		if err != nil || len(hs) != 1 {
			t.Fatalf("%s: %v, %v", p.en.cand.ToolID, hs, err)
		}
		whole, want := hs[0].Score, hs[0].Score
		for _, v := range vectors[1:] {
			hs, _ := e.enc.search(v, 1, vecindex.IDs(p.en.cand.ToolID))
			want = max(want, hs[0].Score)
		}
		if math.Abs(p.encCosine-float64(want)) > 1e-6 {
			t.Errorf("%s: encoder cosine %v, want the best over the request and its parts, %v", p.en.cand.ToolID, p.encCosine, want)
		}
		if want > whole {
			fromPart = append(fromPart, p.en.cand.ToolID)
		}
	}
	// The issue tool is closer to its part than to the blur of both.
	if !slices.Contains(fromPart, "github/create_issue") {
		t.Errorf("tools whose best cosine is to a part: %v, want github/create_issue among them", fromPart)
	}
	if !top["weather/getForecast"] || !top["github/create_issue"] {
		t.Errorf("top three %v, want the forecast and the issue tool among them", top)
	}
}

// An engine with the encoder takes the calibration fitted with the
// encoder's features, unless it is given one; without, the plain default.
func TestEncoderCalibrationChoice(t *testing.T) {
	if v := newEncoderFixture(t).Calibration().Version; v != DefaultEncoderCalibration().Version {
		t.Errorf("engine with the encoder uses calibration %q, want %q", v, DefaultEncoderCalibration().Version)
	}
	emb, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	enc, err := embed.NewUSELite()
	if err != nil {
		evaltest.Unavailable(t, "sentence encoder (make embeddings)", err)
	}
	given := DefaultCalibration()
	given.Version = "given"
	if v := newFixture(t, WithEmbedder(emb), WithEncoder(enc), WithCalibration(given)).Calibration().Version; v != "given" {
		t.Errorf("engine given a calibration uses %q", v)
	}
	if v := newFixture(t, WithEmbedder(emb)).Calibration().Version; v != DefaultCalibration().Version {
		t.Errorf("engine without the encoder uses calibration %q, want %q", v, DefaultCalibration().Version)
	}
}

// A request the agent answers by itself reads like its abilities, and its
// top tool's confidence is lower than a real tool request's.
func TestSelfServeFeature(t *testing.T) {
	e := newEncoderFixture(t)
	pool := func(text string) []*pooled {
		ps := e.explainPool(t, text)
		e.calibration().confidences(ps)
		return ps
	}
	chat := pool("Write a short poem about autumn leaves falling in the park")
	tool := pool("Get the weather forecast for Lisbon for the next three days")
	if !(chat[0].selfServe > tool[0].selfServe) {
		t.Errorf("self_serve: poem %.3f, forecast %.3f; want the poem higher", chat[0].selfServe, tool[0].selfServe)
	}
	for _, p := range chat {
		if p.selfServe != chat[0].selfServe {
			t.Fatalf("self_serve differs across candidates: %v vs %v", p.selfServe, chat[0].selfServe)
		}
	}
	if !(chat[0].conf < tool[0].conf) {
		t.Errorf("top confidence: poem %.3f (%s), forecast %.3f (%s); want the poem lower", chat[0].conf, chat[0].en.cand.ToolID, tool[0].conf, tool[0].en.cand.ToolID)
	}
}
