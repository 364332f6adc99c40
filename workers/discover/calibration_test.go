package discover

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"sync"
	"testing"
)

func TestDefaultCalibrationMonotonic(t *testing.T) {
	m, err := DefaultCalibration().compile()
	if err != nil {
		t.Fatal(err)
	}
	base := make([]float64, len(featureNames))
	p0 := m.probability(base)
	// More margin, cosine, coverage, known words or tool coverage must
	// never lower the probability that the tool is right.
	for _, f := range []string{FeatureMargin, FeatureCosine, FeatureCoverage, FeatureKnown, FeatureKeywordLogit, FeatureToolCoverage} {
		x := slices.Clone(base)
		x[slices.Index(featureNames, f)] = 1
		if p := m.probability(x); p < p0 {
			t.Errorf("raising %s lowered the probability: %.3f < %.3f", f, p, p0)
		}
	}
	if m.need == nil {
		t.Fatal("default calibration has no need model")
	}
	n0 := m.need.probability(base)
	// Likewise, a closer best tool, more known words, more coverage must
	// never make needing a tool less likely.
	for _, f := range DefaultCalibration().Need.Features {
		x := slices.Clone(base)
		x[slices.Index(featureNames, f)] = 1
		if p := m.need.probability(x); p < n0 {
			t.Errorf("raising %s lowered P(need): %.3f < %.3f", f, p, n0)
		}
	}
	huge, tiny := slices.Repeat([]float64{1e9}, len(featureNames)), slices.Repeat([]float64{-1e9}, len(featureNames))
	for _, x := range [][]float64{base, huge, tiny} {
		if p := m.probability(x); p < 0 || p > 1 || math.IsNaN(p) {
			t.Errorf("probability %v out of [0,1]", p)
		}
	}
}

func TestCalibrationRejectsInvalid(t *testing.T) {
	e := newHybrid(t, &fakeEmbedder{})
	for _, c := range []Calibration{
		{Features: []string{"margin"}, Weights: []float64{1, 2}},
		{Features: []string{"nonsense"}, Weights: []float64{1}},
		{Features: []string{"margin"}, Weights: []float64{math.NaN()}},
		{Bias: math.Inf(1)},
		{Need: &NeedModel{Features: []string{"margin"}, Weights: []float64{1, 2}}},
		{Need: &NeedModel{Features: []string{"nonsense"}, Weights: []float64{1}}},
		{Need: &NeedModel{Features: []string{"known"}, Weights: []float64{math.Inf(-1)}}},
		{Need: &NeedModel{Bias: math.NaN()}},
	} {
		if err := e.SetCalibration(c); err == nil {
			t.Errorf("accepted %+v", c)
		}
	}
	if e.Calibration().Version != DefaultCalibration().Version {
		t.Error("a refused calibration replaced the current one")
	}
	if _, err := New(fixtureTools(), WithCalibration(Calibration{Features: []string{"x"}, Weights: []float64{1}})); err == nil {
		t.Error("New accepted an invalid calibration")
	}
}

func TestCalibrationJSONRoundTrip(t *testing.T) {
	b, err := json.Marshal(DefaultCalibration())
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseCalibration(b)
	d := DefaultCalibration()
	if err != nil || c.Version != d.Version || !slices.Equal(c.Weights, d.Weights) {
		t.Fatalf("round trip: %+v, %v", c, err)
	}
	if c.Need == nil || !slices.Equal(c.Need.Weights, d.Need.Weights) || !slices.Equal(c.Need.Features, d.Need.Features) || c.Need.Bias != d.Need.Bias {
		t.Fatalf("round trip lost the need model: %+v", c.Need)
	}
}

// Run with -race: searches and swaps must not race.
func TestSetCalibrationSwapConcurrent(t *testing.T) {
	e := newHybrid(t, &fakeEmbedder{})
	sure := Calibration{Version: "sure", Bias: 20}
	unsure := Calibration{Version: "unsure", Bias: -20}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 200 {
				cs, err := e.Search(context.Background(), "send an email", 3, nil)
				if err != nil || len(cs) == 0 {
					t.Errorf("search: %v, %v", cs, err)
					return
				}
				if c := cs[0].Confidence; c > 1e-6 && c < 1-1e-6 {
					t.Errorf("confidence %v from neither model", c)
					return
				}
			}
		})
	}
	wg.Go(func() {
		for i := range 200 {
			c := sure
			if i%2 == 1 {
				c = unsure
			}
			if err := e.SetCalibration(c); err != nil {
				t.Error(err)
			}
		}
	})
	_ = e.SetCalibration(sure)
	wg.Wait()
	if err := e.SetCalibration(sure); err != nil {
		t.Fatal(err)
	}
	cs, _ := e.Search(context.Background(), "send an email", 3, nil)
	if cs[0].Confidence < 0.99 {
		t.Errorf("after the swap: confidence %v, want the new model's ~1", cs[0].Confidence)
	}
}

func TestFitCalibrationRecoversSeparation(t *testing.T) {
	var rows [][]float64
	var right []bool
	for i := range 200 {
		x := float64(i)/100 - 1
		rows = append(rows, []float64{x})
		right = append(right, (i*7919)%200 < i) // more often right as x grows
	}
	c, err := FitCalibration([]string{FeatureMargin}, rows, right, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if c.Weights[0] <= 0 {
		t.Errorf("weight %v, want positive", c.Weights[0])
	}
	if _, err := FitCalibration([]string{FeatureMargin}, rows, right[:3], 1e-3); err == nil {
		t.Error("accepted mismatched labels")
	}
}

func TestFusionNormalisers(t *testing.T) {
	if got := minMax([]float64{2, 4, 3}); !slices.Equal(got, []float64{0, 1, 0.5}) {
		t.Errorf("minMax %v", got)
	}
	if got := minMax([]float64{5, 5}); !slices.Equal(got, []float64{0, 0}) {
		t.Errorf("minMax of equal %v", got)
	}
	z := zScores([]float64{1, 2, 3})
	if math.Abs(z[0]+z[2]) > 1e-12 || z[1] != 0 || z[2] <= 0 {
		t.Errorf("zScores %v", z)
	}
	// Evidence fusion: a tool both sides like beats one only one side likes.
	ps := []*pooled{
		{bm25: 10, cosine: 0.9, coverage: 0.5, kwRank: 0, vecRank: 0},
		{bm25: 10, cosine: 0.1, coverage: 0.5, kwRank: 1, vecRank: -1},
		{bm25: 1, cosine: 0.9, coverage: 0.1, kwRank: -1, vecRank: 1},
	}
	fusionEvidence.fuse(ps, ModeHybrid)
	if !(ps[0].fused > ps[1].fused && ps[0].fused > ps[2].fused) {
		t.Errorf("fused %v %v %v", ps[0].fused, ps[1].fused, ps[2].fused)
	}
}

// The need factor multiplies every candidate's confidence by the same
// P(needs a tool), from the top candidate's features; without it the
// confidences are the first factor's alone, and a model that says every
// intent needs a tool changes nothing.
func TestNeedFactor(t *testing.T) {
	const q = "send an email to the team"
	e := newHybrid(t, &fakeEmbedder{})
	base := Calibration{Version: "plain", Features: []string{FeatureCoverage}, Weights: []float64{4}, Bias: -1}
	cases := []struct {
		name string
		need *NeedModel
		// want is the expected ratio of the confidences to the plain ones.
		want func(top []float64) float64
	}{
		{"no need model", nil, func([]float64) float64 { return 1 }},
		{"certain need", &NeedModel{Bias: 30}, func([]float64) float64 { return 1 }},
		{"half", &NeedModel{Bias: 0}, func([]float64) float64 { return 0.5 }},
		{"from coverage", &NeedModel{Features: []string{FeatureCoverage}, Weights: []float64{2}, Bias: -1},
			func(x []float64) float64 { return sigmoid(-1 + 2*x[slices.Index(featureNames, FeatureCoverage)]) }},
	}
	if err := e.SetCalibration(base); err != nil {
		t.Fatal(err)
	}
	plain := e.explainPool(t, q)
	e.calibration().confidences(plain)
	top := poolFeatures(plain)[0]
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cal := base
			cal.Need = c.need
			if err := e.SetCalibration(cal); err != nil {
				t.Fatal(err)
			}
			ps := e.explainPool(t, q)
			e.calibration().confidences(ps)
			ratio := c.want(top)
			for i, p := range ps {
				if want := plain[i].conf * ratio; math.Abs(p.conf-want) > 1e-9 {
					t.Errorf("candidate %d (%s): confidence %.6f, want %.6f", i, p.en.cand.ToolID, p.conf, want)
				}
			}
		})
	}
}
