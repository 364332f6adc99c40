package discover

import (
	"fmt"
	"slices"
)

// NeedModel is the probability that an intent needs a tool at all,
// σ(Bias + Σ Weights[i]·feature(Features[i])) over the top candidate's
// features (calibration.go). Whether any tool is right is a different
// question from which one is: requests an agent answers by itself (write a
// poem, explain a proverb) are far from every tool, while a request for a
// tool that was ranked second is still close to several. A single model of
// "is the top tool right" fitted on queries that all need a tool learns the
// second and barely the first; the product keeps both.
//
// The model is fitted on queries labelled needs-a-tool or not, and its
// bias then moved to the share of intents expected to need a tool where it
// runs (Prior): fitted on a balanced set it would otherwise halve every
// confidence on traffic where almost every intent needs a tool.
type NeedModel struct {
	Features []string  `json:"features"`
	Weights  []float64 `json:"weights"`
	Bias     float64   `json:"bias"`
	// Prior is the share of intents the bias assumes need a tool (for the
	// record; the bias already includes it).
	Prior float64 `json:"prior,omitempty"`
}

type needModel struct {
	weights []float64
	bias    float64
	feature []term
}

func (n NeedModel) compile() (*needModel, error) {
	if len(n.Features) != len(n.Weights) {
		return nil, fmt.Errorf("need model: %d features but %d weights", len(n.Features), len(n.Weights))
	}
	if !finite(n.Bias) {
		return nil, fmt.Errorf("need model: bias %v is not a finite number", n.Bias)
	}
	m := &needModel{weights: slices.Clone(n.Weights), bias: n.Bias, feature: make([]term, len(n.Features))}
	for i, f := range n.Features {
		t, err := parseTerm(f)
		if err != nil {
			return nil, fmt.Errorf("need model: %w", err)
		}
		if !finite(n.Weights[i]) {
			return nil, fmt.Errorf("need model: weight of %s is %v, not a finite number", f, n.Weights[i])
		}
		m.feature[i] = t
	}
	return m, nil
}

// probability is σ(bias + w·x) for the top candidate's feature vector.
func (m *needModel) probability(x []float64) float64 {
	z := m.bias
	for i, t := range m.feature {
		z += m.weights[i] * t.value(x)
	}
	return clamp01(sigmoid(z))
}
