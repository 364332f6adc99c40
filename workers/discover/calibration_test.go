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
	for _, cal := range []Calibration{DefaultCalibration(), DefaultEncoderCalibration()} {
		t.Run(cal.Version, func(t *testing.T) {
			m, err := cal.compile()
			if err != nil {
				t.Fatal(err)
			}
			// From a middling request (every signal 0.5, so that a product
			// of two moves with either), more margin, cosine (either
			// encoder's), coverage, known words, tool coverage or
			// describing words must never lower the probability that the
			// tool is right; every signal the shipped models read is one of
			// these.
			base := slices.Repeat([]float64{0.5}, len(signals))
			p0 := m.probability(base)
			for i, tm := range m.feature {
				for _, j := range []int{tm.index, tm.times} {
					if j < 0 {
						continue
					}
					x := slices.Clone(base)
					x[j]++
					if p := m.probability(x); p < p0 {
						t.Errorf("raising %s (read by %s) lowered the probability: %.3f < %.3f", signals[j].name, cal.Features[i], p, p0)
					}
				}
			}
			if m.need == nil {
				t.Fatal("default calibration has no need model")
			}
			base = make([]float64, len(signals))
			n0 := m.need.probability(base)
			// Likewise, a closer best tool, more known words, more
			// coverage must never make needing a tool less likely; a
			// request closer to what the agent does by itself, or asking
			// for an effect the tool does not have, must never make it
			// more likely.
			against := []string{FeatureSelfServe, FeatureActionConflict}
			for _, f := range cal.Need.Features {
				x := slices.Clone(base)
				x[signalIndex(f)] = 1
				p := m.need.probability(x)
				if slices.Contains(against, f) && p > n0 {
					t.Errorf("raising %s raised P(need): %.3f > %.3f", f, p, n0)
				}
				if !slices.Contains(against, f) && p < n0 {
					t.Errorf("raising %s lowered P(need): %.3f < %.3f", f, p, n0)
				}
			}
			huge, tiny := slices.Repeat([]float64{1e9}, len(signals)), slices.Repeat([]float64{-1e9}, len(signals))
			for _, x := range [][]float64{base, huge, tiny} {
				if p := m.probability(x); p < 0 || p > 1 || math.IsNaN(p) {
					t.Errorf("probability %v out of [0,1]", p)
				}
			}
		})
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
	// In force before the first search: under the default model a search
	// would get a confidence from neither of the two.
	if err := e.SetCalibration(sure); err != nil {
		t.Fatal(err)
	}
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
	wg.Wait()
	for _, c := range []Calibration{unsure, sure} {
		if err := e.SetCalibration(c); err != nil {
			t.Fatal(err)
		}
		cs, err := e.Search(context.Background(), "send an email", 3, nil)
		if err != nil || len(cs) == 0 {
			t.Fatalf("search: %v, %v", cs, err)
		}
		if want := sigmoid(c.Bias); math.Abs(cs[0].Confidence-want) > 1e-6 {
			t.Errorf("after swapping to %s: confidence %v, want %v", c.Version, cs[0].Confidence, want)
		}
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
	c, err := FitCalibration([]string{FeatureMargin}, rows, right, nil, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if c.Weights[0] <= 0 {
		t.Errorf("weight %v, want positive", c.Weights[0])
	}
	if _, err := FitCalibration([]string{FeatureMargin}, rows, right[:3], nil, 1e-3); err == nil {
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
			func(x []float64) float64 { return sigmoid(-1 + 2*x[signalIndex(FeatureCoverage)]) }},
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

// margin_excess is the fused margin to the runner-up beyond one whole
// evidence term, never negative, so it only changes the slope of the margin
// above 1; the runner-up's own margin is negative, and its excess 0.
func TestMarginExcessFeature(t *testing.T) {
	margin, excess := signalIndex(FeatureMargin), signalIndex(FeatureMarginExcess)
	cases := []struct {
		name  string
		fused []float64
		want  []float64
	}{
		{"lead beyond one", []float64{3.5, 1.25, 1}, []float64{1.25, 0, 0}},
		{"lead of exactly one", []float64{2, 1}, []float64{0, 0}},
		{"close call", []float64{2, 1.9}, []float64{0, 0}},
		{"alone", []float64{1.75}, []float64{0.75}},
		{"tie", []float64{2, 2}, []float64{0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ps := make([]*pooled, len(c.fused))
			for i, f := range c.fused {
				ps[i] = &pooled{fused: f, kwRank: i, vecRank: i}
			}
			for i, x := range poolFeatures(ps) {
				if math.Abs(x[excess]-c.want[i]) > 1e-12 {
					t.Errorf("candidate %d: margin_excess %v, want %v", i, x[excess], c.want[i])
				}
				if want := math.Max(0, x[margin]-1); x[excess] != want {
					t.Errorf("candidate %d: margin_excess %v, margin %v", i, x[excess], x[margin])
				}
			}
		})
	}
}

// usage_agree counts the usage signals on which a candidate leads the pool:
// ties lead too, and a signal no candidate has (0 everywhere) counts for
// none.
func TestUsageAgreeFeature(t *testing.T) {
	agree := signalIndex(FeatureUsageAgree)
	cases := []struct {
		name string
		ps   []*pooled
		want []float64
	}{
		{"one tool leads every signal", []*pooled{
			{useClass: 0.9, useVectorClass: 0.8, useText: 1, useTextVote: 0.7, useNear: 0.9, useVote: 0.6},
			{useClass: 0.1, useVectorClass: 0.1, useText: 0.5, useTextVote: 0.3, useNear: 0.8, useVote: 0.4},
		}, []float64{1, 0}},
		{"split", []*pooled{
			{useClass: 0.9, useVectorClass: 0.2, useText: 1, useNear: 0.5},
			{useClass: 0.1, useVectorClass: 0.7, useText: 0.5, useNear: 0.8, useVote: 1},
		}, []float64{2.0 / 6, 3.0 / 6}},
		{"tie on the vote", []*pooled{{useVote: 0.5}, {useVote: 0.5}}, []float64{1.0 / 6, 1.0 / 6}},
		{"no history", []*pooled{{fused: 2}, {fused: 1}}, []float64{0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for i, x := range poolFeatures(c.ps) {
				if math.Abs(x[agree]-c.want[i]) > 1e-12 {
					t.Errorf("candidate %d: usage_agree %v, want %v", i, x[agree], c.want[i])
				}
			}
		})
	}
}

// A calibration document from before margin_excess existed still loads
// and means what it meant: new features only add names.
func TestCalibrationOlderDocument(t *testing.T) {
	doc := `{"version":"default-4","features":["margin","cosine","coverage","known","tool_coverage"],
		"weights":[1.6048,1.8086,1.8509,1.0395,2.4490],"bias":-3.9455,
		"need":{"features":["cosine_best","known"],"weights":[3.1,2.0],"bias":-4.1,"prior":0.9}}`
	c, err := ParseCalibration([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.compile()
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, len(signals))
	x[signalIndex(FeatureMargin)] = 2
	x[signalIndex(FeatureMarginExcess)] = 1 // not in this model: ignored
	if got, want := m.probability(x), sigmoid(-3.9455+2*1.6048); math.Abs(got-want) > 1e-12 {
		t.Errorf("probability %v, want %v", got, want)
	}
}
