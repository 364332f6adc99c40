package fit

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/toolyard/toolyard/workers/discover"
)

// Spec says what to fit: the features of each factor of the confidence
// P(needs a tool) · P(right | needs a tool) (discover's need.go), the share
// of intents assumed to need a tool, and the L2 penalty.
//
// A feature is a signal (discover.FeatureNames), an extra (Extras), or one
// derived from them: "a*b" a product, "log:a" log(1 + max(0, a)), "a>t"
// the hinge max(0, a - t), "a<t" min(t, a). Only a model of signals, their
// hinges and products of two (discover reads "a>t" and "a*b" the same way;
// Model.Calibration says so) can be shipped; the others are for experiments.
type Spec struct {
	Right, Need []string
	Prior       float64
	L2          float64
}

// SpecOf is the spec a shipped calibration was fitted with.
func SpecOf(c discover.Calibration) Spec {
	s := Spec{Right: c.Features, Prior: 0.9, L2: 1e-3}
	if c.Need != nil {
		s.Need, s.Prior = c.Need.Features, c.Need.Prior
	}
	return s
}

// Factor is one logistic model: σ(Bias + Σ Weights[i]·feature(Features[i])).
type Factor struct {
	Features []string
	Weights  []float64
	Bias     float64
}

func (f Factor) probability(x map[string]float64) (float64, error) {
	z := f.Bias
	for i, name := range f.Features {
		v, err := Value(x, name)
		if err != nil {
			return 0, err
		}
		z += f.Weights[i] * v
	}
	return 1 / (1 + math.Exp(-z)), nil
}

// Model is a fitted confidence: Need's probability times Right's.
type Model struct {
	Right, Need Factor
	// NeedBase is the share of the need model's rows that needed a tool;
	// Need.Bias has been moved from it to Prior.
	NeedBase, Prior float64
}

// Confidence is the model's P(need) · P(right | need) of a row, and P(need).
func (m Model) Confidence(x map[string]float64) (conf, need float64, err error) {
	if need, err = m.Need.probability(x); err != nil {
		return 0, 0, err
	}
	right, err := m.Right.probability(x)
	return need * right, need, err
}

// Fit fits both factors on rows: P(right | need) on the rows that need a
// tool (is the top candidate right), P(need) on the awareness rows (does
// the query need a tool at all), its bias then moved from the rows' base
// rate to s.Prior.
func Fit(rows []Row, s Spec) (Model, error) {
	var rx, nx [][]float64
	var ry, ny []bool
	pos := 0
	for _, r := range rows {
		if r.Need {
			x, err := project(r.X, s.Right)
			if err != nil {
				return Model{}, err
			}
			rx, ry = append(rx, x), append(ry, r.Right)
		}
		if r.Set == SetAwareness {
			x, err := project(r.X, s.Need)
			if err != nil {
				return Model{}, err
			}
			nx, ny = append(nx, x), append(ny, r.Need)
			if r.Need {
				pos++
			}
		}
	}
	m := Model{Prior: s.Prior}
	var err error
	if m.Right, err = fitFactor(s.Right, rx, ry, s.L2); err != nil {
		return Model{}, fmt.Errorf("fit P(right | need): %w", err)
	}
	if len(nx) == 0 {
		return Model{}, fmt.Errorf("fit P(need): no %s rows (queries labelled needs_tool)", SetAwareness)
	}
	if m.Need, err = fitFactor(s.Need, nx, ny, s.L2); err != nil {
		return Model{}, fmt.Errorf("fit P(need): %w", err)
	}
	m.NeedBase = float64(pos) / float64(len(ny))
	if s.Prior > 0 && s.Prior < 1 {
		m.Need.Bias += logit(s.Prior) - logit(m.NeedBase)
	}
	return m, nil
}

func fitFactor(features []string, x [][]float64, y []bool, l2 float64) (Factor, error) {
	w, b, err := discover.FitLogistic(x, y, l2)
	if err != nil {
		return Factor{}, err
	}
	return Factor{Features: features, Weights: w, Bias: b}, nil
}

// Calibration is the model as discovery's document, checked: every
// feature must be a signal.
func (m Model) Calibration(version, note string) (discover.Calibration, error) {
	c := discover.Calibration{
		Version: version, Features: m.Right.Features, Weights: round4(m.Right.Weights), Bias: round4([]float64{m.Right.Bias})[0],
		Need: &discover.NeedModel{Features: m.Need.Features, Weights: round4(m.Need.Weights), Bias: round4([]float64{m.Need.Bias})[0], Prior: m.Prior},
		Note: note,
	}
	b, err := json.Marshal(c)
	if err != nil {
		return discover.Calibration{}, err
	}
	return discover.ParseCalibration(b)
}

// round4 rounds to the four decimals the shipped constants are written
// with: more would be noise of the fit, not information.
func round4(ws []float64) []float64 {
	out := make([]float64, len(ws))
	for i, w := range ws {
		out[i] = math.Round(w*1e4) / 1e4
	}
	return out
}

func project(x map[string]float64, features []string) ([]float64, error) {
	out := make([]float64, len(features))
	for i, f := range features {
		v, err := Value(x, f)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// Value reads a feature of a row, derived ones included (see Spec). A
// term a shipped model may hold (a signal, its hinge, a product of two) is
// read by discover itself, so a fitted model means what it will ship as.
func Value(x map[string]float64, f string) (float64, error) {
	if discover.CheckTerm(f) == nil {
		return discover.TermValue(f, x), nil
	}
	if a, b, ok := strings.Cut(f, "*"); ok {
		va, err := Value(x, a)
		if err != nil {
			return 0, err
		}
		vb, err := Value(x, b)
		return va * vb, err
	}
	if a, ok := strings.CutPrefix(f, "log:"); ok {
		v, err := Value(x, a)
		return math.Log1p(math.Max(0, v)), err
	}
	for _, op := range []string{"<", ">"} {
		a, b, ok := strings.Cut(f, op)
		if !ok {
			continue
		}
		t, err := strconv.ParseFloat(b, 64)
		if err != nil {
			return 0, fmt.Errorf("feature %q: threshold %q is not a number", f, b)
		}
		v, err := Value(x, a)
		if op == "<" {
			return math.Min(t, v), err
		}
		return math.Max(0, v-t), err
	}
	v, ok := x[f]
	if !ok {
		return 0, fmt.Errorf("unknown feature %q (signals: %v; extras: %v)", f, discover.FeatureNames(), Extras)
	}
	return v, nil
}

func logit(p float64) float64 {
	p = math.Min(math.Max(p, 1e-9), 1-1e-9)
	return math.Log(p / (1 - p))
}
