package discover

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A model term names a signal, a hinge of one, or a product of two:
// "coverage" is the signal's value, "coverage>0.4" is max(0, coverage -
// 0.4), "margin*coverage" is margin times coverage. Hinges let a logistic
// model give a signal a steeper slope past a point (a lead of more than one
// whole term of evidence, a request mostly in a tool's own words) without a
// hand-written signal for each bend; margin_excess is one such bend kept as
// a signal for older model documents. A product lets one signal count in
// proportion to another (a lead over the runner-up that means less when
// the tool covers few of the request's words).
type term struct {
	index int     // into the signals table
	knot  float64 // the hinge's knot; NaN for the plain value
	times int     // a second signal the value is multiplied by; -1 for none
}

// parseTerm resolves a model term's name.
func parseTerm(name string) (term, error) {
	if a, b, product := strings.Cut(name, "*"); product {
		t, err := parseTerm(a)
		if err != nil {
			return term{}, err
		}
		j := signalIndex(strings.TrimSpace(b))
		if j < 0 || t.times >= 0 {
			return term{}, fmt.Errorf("feature %q: %q is not a signal (known: %v; a product is NAME*NAME or NAME>KNOT*NAME)", name, b, FeatureNames())
		}
		t.times = j
		return t, nil
	}
	sig, knotText, hinge := strings.Cut(name, ">")
	j := signalIndex(strings.TrimSpace(sig))
	if j < 0 {
		return term{}, fmt.Errorf("unknown feature %q (known: %v, each optionally as NAME>KNOT)", name, FeatureNames())
	}
	t := term{index: j, knot: math.NaN(), times: -1}
	if hinge {
		k, err := strconv.ParseFloat(strings.TrimSpace(knotText), 64)
		if err != nil || !finite(k) {
			return term{}, fmt.Errorf("feature %q: knot %q is not a finite number", name, knotText)
		}
		t.knot = k
	}
	return t, nil
}

// value is the term's value for a candidate's signal vector.
func (t term) value(x []float64) float64 {
	return t.of(func(i int) float64 { return x[i] })
}

// of is the term's value given a way to read a signal by its index.
func (t term) of(signal func(int) float64) float64 {
	v := signal(t.index)
	if !math.IsNaN(t.knot) {
		v = math.Max(0, v-t.knot)
	}
	if t.times >= 0 {
		v *= signal(t.times)
	}
	return v
}

// TermValue is the value of a model term (a signal name, or NAME>KNOT for a
// hinge) given a candidate's signals by name; 0 for an unknown term.
func TermValue(name string, bySignal map[string]float64) float64 {
	t, err := parseTerm(name)
	if err != nil {
		return 0
	}
	return t.of(func(i int) float64 { return bySignal[signals[i].name] })
}

// termDoc is what a model term measures: its signal's doc ("" for an
// unknown term).
func termDoc(name string) string {
	t, err := parseTerm(name)
	if err != nil {
		return ""
	}
	return signals[t.index].doc
}

// CheckTerm says whether name is a model term a Calibration may use.
func CheckTerm(name string) error {
	_, err := parseTerm(name)
	return err
}
