package fit

import (
	"go/parser"
	"go/token"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/workers/discover"
)

// synthRows draws rows whose labels follow known logistic models: the top
// tool is right with σ(-2 + 4·margin), a query needs a tool with
// σ(-1 + 3·known) (awareness rows only; the others all need one).
func synthRows(n int, seed uint64) []Row {
	r := rand.New(rand.NewPCG(seed, 7))
	sig := func(z float64) float64 { return 1 / (1 + math.Exp(-z)) }
	var rows []Row
	for i := range n {
		x := map[string]float64{}
		for _, f := range append(discover.FeatureNames(), Extras...) {
			x[f] = r.Float64()
		}
		set := SetMetaTool
		need := true
		if i%2 == 0 {
			set = SetAwareness
			need = r.Float64() < sig(-1+3*x[discover.FeatureKnown])
		}
		right := need && r.Float64() < sig(-2+4*x[discover.FeatureMargin])
		rows = append(rows, Row{Set: set, X: x, Need: need, Right: right})
	}
	return rows
}

func TestFitRecoversTheModelsBehindTheLabels(t *testing.T) {
	rows := synthRows(20000, 1)
	s := Spec{Right: []string{discover.FeatureMargin}, Need: []string{discover.FeatureKnown}, Prior: 0.9, L2: 1e-6}
	m, err := Fit(rows, s)
	if err != nil {
		t.Fatal(err)
	}
	near := func(what string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.3f, want %.3f ± %.2f", what, got, want, tol)
		}
	}
	near("right weight", m.Right.Weights[0], 4, 0.25)
	near("right bias", m.Right.Bias, -2, 0.15)
	near("need weight", m.Need.Weights[0], 3, 0.3)
	// The need bias is the fitted one moved from the rows' base rate to the prior.
	near("need bias", m.Need.Bias, -1+logit(0.9)-logit(m.NeedBase), 0.2)
}

func TestFitSaysWhatIsMissing(t *testing.T) {
	rows := synthRows(200, 2)
	var noAwareness []Row
	for _, r := range rows {
		if r.Set != SetAwareness {
			noAwareness = append(noAwareness, r)
		}
	}
	tests := []struct {
		name string
		rows []Row
		spec Spec
		want string
	}{
		{"unknown feature", rows, Spec{Right: []string{"no_such_signal"}, Need: []string{discover.FeatureKnown}}, `unknown feature "no_such_signal"`},
		{"bad threshold", rows, Spec{Right: []string{"margin>x"}, Need: []string{discover.FeatureKnown}}, `threshold "x" is not a number`},
		{"no awareness rows", noAwareness, Spec{Right: []string{discover.FeatureMargin}, Need: []string{discover.FeatureKnown}}, "no awareness rows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Fit(tt.rows, tt.spec); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func TestValueDerivesFeatures(t *testing.T) {
	x := map[string]float64{"a": 0.8, "b": 0.5, "c": -1}
	tests := []struct {
		f    string
		want float64
	}{
		{"a", 0.8}, {"a*b", 0.4}, {"log:a", math.Log1p(0.8)}, {"log:c", 0},
		{"a>0.5", 0.3}, {"b>0.6", 0}, {"a<0.6", 0.6}, {"b<0.6", 0.5},
	}
	for _, tt := range tests {
		got, err := Value(x, tt.f)
		if err != nil || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Value(%q) = %v, %v; want %v", tt.f, got, err, tt.want)
		}
	}
}

func TestCrossValidateHoldsEachRowOut(t *testing.T) {
	rows := synthRows(2000, 3)
	s := Spec{Right: []string{discover.FeatureMargin}, Need: []string{discover.FeatureKnown}, Prior: 0.9, L2: 1e-3}
	if _, _, err := CrossValidate(rows, s, 1, 1); err == nil {
		t.Error("one fold accepted: nothing would be held out")
	}
	a, _, err := CrossValidate(rows, s, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	again, _, _ := CrossValidate(rows, s, 5, 1)
	other, _, _ := CrossValidate(rows, s, 5, 2)
	same, moved := true, false
	for i := range a {
		same = same && a[i] == again[i]
		moved = moved || a[i] != other[i]
	}
	if !same || !moved {
		t.Errorf("the same shuffle must give the same figures (%v), another shuffle others (%v)", same, moved)
	}
	// Out-of-fold confidences of the model the labels were drawn from
	// separate right from wrong as that model does (AUROC about 0.75).
	fs := Report(rows, a)
	for _, f := range fs {
		if f.Set == SetMetaTool && f.AUROCRight < 0.7 {
			t.Errorf("%s AUROC(right) %.3f on rows drawn from the model itself", f.Set, f.AUROCRight)
		}
		if f.Set == SetAwareness && math.IsNaN(f.AUROCNeed) {
			t.Errorf("awareness has rows needing no tool: AUROC(need) must be reported")
		}
	}
}

func TestOnlyModelsOfSignalsShip(t *testing.T) {
	rows := synthRows(2000, 4)
	m, err := Fit(rows, Spec{Right: []string{discover.FeatureMargin, "log:margin"}, Need: []string{discover.FeatureKnown}, Prior: 0.9, L2: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Calibration("x", ""); err == nil {
		t.Error("a model of a derived feature was accepted as a calibration")
	}
	m, err = Fit(rows, Spec{Right: []string{discover.FeatureMargin}, Need: []string{discover.FeatureKnown, discover.FeatureSelfServe}, Prior: 0.9, L2: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.Calibration("test-1", "note")
	if err != nil {
		t.Fatal(err)
	}
	if c.Need == nil || c.Need.Prior != 0.9 || c.Version != "test-1" {
		t.Fatalf("calibration %+v", c)
	}
	src, err := FormatGo(c)
	if err != nil {
		t.Fatal(err)
	}
	// The Go is the body of a function returning a Calibration.
	file := "package discover\nfunc f() Calibration {\n" + string(src) + "}\n"
	if _, err := parser.ParseFile(token.NewFileSet(), "", file, 0); err != nil {
		t.Fatalf("FormatGo printed what is not Go: %v\n%s", err, src)
	}
	for _, want := range []string{`Version:  "test-1"`, `"self_serve"`, "Prior:    0.9000", num(c.Need.Weights[1])} {
		if !strings.Contains(string(src), want) {
			t.Errorf("FormatGo output lacks %q:\n%s", want, src)
		}
	}
}
