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
	if err != nil || c.Version != DefaultCalibration().Version || !slices.Equal(c.Weights, DefaultCalibration().Weights) {
		t.Fatalf("round trip: %+v, %v", c, err)
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
