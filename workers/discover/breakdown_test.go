package discover

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/workers/discover/embed"
)

// A breakdown adds up to the confidence the model gives, for every form of
// model: right and need multiplied, the need as a term (trained models),
// no need model, and hinge terms.
func TestBreakdownAddsUpToTheConfidence(t *testing.T) {
	needTerm := 0.7
	withTerm := DefaultCalibration()
	withTerm.NeedTerm = &needTerm
	noNeed := DefaultCalibration()
	noNeed.Need = nil
	hinge := DefaultCalibration()
	hinge.Features = append(hinge.Features, FeatureCosine+">0.4")
	hinge.Weights = append(hinge.Weights, 2)
	models := map[string]Calibration{
		"default": DefaultCalibration(), "encoder": DefaultEncoderCalibration(),
		"need term": withTerm, "no need model": noNeed, "hinge": hinge,
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for name, c := range models {
		for range 200 {
			signals := map[string]float64{}
			for _, f := range FeatureNames() {
				signals[f] = rng.Float64()*2 - 0.5
			}
			b := c.Breakdown(signals)
			if want := c.Confidence(signals); math.Abs(b.Confidence-want) > 1e-12 {
				t.Fatalf("%s: breakdown confidence %v, the model's %v", name, b.Confidence, want)
			}
			z := b.RightBias
			for _, term := range b.Right {
				z += term.Weight * term.Value
				if term.Doc == "" {
					t.Fatalf("%s: term %s has no doc", name, term.Term)
				}
			}
			if b.NeedTerm != nil {
				z += *b.NeedTerm * NeedLogit(b.PNeed)
			}
			if p := 1 / (1 + math.Exp(-z)); math.Abs(p-b.PRight) > 1e-12 {
				t.Fatalf("%s: the right terms add up to %v, breakdown says %v", name, p, b.PRight)
			}
			if (c.Need == nil) != (len(b.Need) == 0) || (c.Need == nil && b.PNeed != 1) {
				t.Fatalf("%s: need terms %d, P(need) %v for a model with need %v", name, len(b.Need), b.PNeed, c.Need != nil)
			}
		}
	}
}

// Why explains the search it runs: the same top tool and confidence as
// Search, broken down by the model in force.
func TestWhyExplainsTheSearch(t *testing.T) {
	emb, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	e := newFixture(t, WithEmbedder(emb), WithMode(ModeHybrid))
	ctx := context.Background()
	// A trained model's own calibration rules when the top tool has
	// history: the breakdown must be of that one.
	learned := DefaultCalibration()
	learned.Version, learned.Bias = "learned-test", learned.Bias+0.5
	needTerm := 0.6
	learned.NeedTerm = &needTerm
	u := &Usage{Version: "v1", Intents: learnedSQL, Weights: UsageWeights{Text: 2, TextVote: 1, Near: 2, Vote: 1}, Calibration: &learned}
	if err := e.SetUsage(ctx, u); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	calibrationOf := map[string]string{"db/run_sql_query": "learned-test", "weather/getForecast": "learned-test"}
	for _, q := range []string{"how much room is left on my hard disk", "send a note to the team", "translate this paragraph into German", "what should I cook tonight", "show me revenue per region"} {
		why, err := e.Why(ctx, q, 5)
		if err != nil {
			t.Fatal(err)
		}
		cands, err := e.Search(ctx, q, 5, nil)
		if err != nil {
			t.Fatal(err)
		}
		if why.Top == nil || len(why.Candidates) == 0 || len(cands) == 0 {
			t.Fatalf("%q: no reasons (%d candidates searched)", q, len(cands))
		}
		if why.Candidates[0].ToolID != cands[0].ToolID || math.Abs(why.Top.Confidence-cands[0].Confidence) > 1e-9 {
			t.Errorf("%q: explained %s at %v, searched %s at %v", q, why.Candidates[0].ToolID, why.Top.Confidence, cands[0].ToolID, cands[0].Confidence)
		}
		want, ok := calibrationOf[cands[0].ToolID]
		if !ok {
			want = DefaultCalibration().Version
		}
		if why.Top.Calibration != want {
			t.Errorf("%q (top %s): explained with %q, want %q", q, cands[0].ToolID, why.Top.Calibration, want)
		}
		seen[why.Top.Calibration] = true
	}
	if !seen["learned-test"] || !seen[DefaultCalibration().Version] {
		t.Errorf("explained with %v; want both the trained model's and the engine's", seen)
	}
}
