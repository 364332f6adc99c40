package discover

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// needTermModel is DefaultCalibration with its need model as a term of
// weight w instead of a factor.
func needTermModel(w float64) Calibration {
	c := DefaultCalibration()
	c.Version, c.NeedTerm = "need-term", &w
	return c
}

func TestNeedTermConfidenceMatchesSearch(t *testing.T) {
	e := newHybrid(t, &fakeEmbedder{})
	for _, w := range []float64{0, 0.5, 2} {
		c := needTermModel(w)
		if err := e.SetCalibration(c); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"weather forecast for Oslo", "open an issue about the crash", "write me a poem"} {
			cs, err := e.Explain(context.Background(), q, 5)
			if err != nil || len(cs) == 0 {
				t.Fatalf("%q: %v %v", q, cs, err)
			}
			s := cs[0].Signals
			got := cs[0].Confidence
			if off := c.Confidence(s); math.Abs(off-got) > 1e-9 {
				t.Errorf("need term %v, %q: offline confidence %v, search %v", w, q, off, got)
			}
			// The term form: σ(z + w·logit P(need)), not the product.
			z := c.Bias
			for i, f := range c.Features {
				z += c.Weights[i] * TermValue(f, s)
			}
			need := termsProbability(c.Need.Bias, c.Need.Features, c.Need.Weights, s)
			if want := sigmoid(z + w*NeedLogit(need)); math.Abs(want-got) > 1e-9 {
				t.Errorf("need term %v, %q: confidence %v, want σ(z + w·logit need) = %v", w, q, got, want)
			}
		}
	}
}

func TestNeedTermIsChecked(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name    string
		c       func() Calibration
		wantErr string
	}{
		{"term with a need model", func() Calibration { return needTermModel(0.7) }, ""},
		{"no term: the product", DefaultCalibration, ""},
		{"term without a need model", func() Calibration { c := needTermModel(0.7); c.Need = nil; return c }, "needs a need model"},
		{"term not a number", func() Calibration { return needTermModel(nan) }, "not a finite number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// SetCalibration and every model a usage model carries are
			// compiled so; a refused one leaves the model in force.
			_, err := tt.c().compile()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("compile: error %v, want one saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(tt.c())
			if err != nil {
				t.Fatal(err)
			}
			got, err := ParseCalibration(b)
			if err != nil {
				t.Fatal(err)
			}
			if (got.NeedTerm == nil) != (tt.c().NeedTerm == nil) || got.NeedTerm != nil && *got.NeedTerm != *tt.c().NeedTerm {
				t.Errorf("need term after a JSON round trip: %v, want %v", got.NeedTerm, tt.c().NeedTerm)
			}
		})
	}
}
