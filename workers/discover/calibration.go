package discover

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

// Calibration is the logistic model that turns a hybrid candidate's
// evidence into the probability that it is the right tool:
// σ(Bias + Σ Weights[i]·feature(Features[i])). It is a JSON document so a
// training job can refit it and publish it (the models bucket), and
// workers swap it in with SetCalibration without a restart.
type Calibration struct {
	Version  string    `json:"version"`
	Features []string  `json:"features"`
	Weights  []float64 `json:"weights"`
	Bias     float64   `json:"bias"`
	// Need, when set, is a second logistic model: the probability that the
	// intent needs a tool at all, from the top candidate's features. The
	// confidence is then P(needs a tool) · P(right | needs a tool), the
	// latter from Features and Weights (need.go).
	Need *NeedModel `json:"need,omitempty"`
	// Note says how and on what the model was fitted.
	Note string `json:"note,omitempty"`
}

// DefaultCalibration is the shipped model, used until SetCalibration
// replaces it: P(needs a tool) · P(right | needs a tool) (need.go).
//
// P(right | needs a tool) was fitted (FitCalibration, l2 1e-3) on the top
// candidates of the MetaTool queries dev set, the awareness dev queries
// that need a tool and the Seal-Tools dev set, with fusionSoftAdd. Its
// weights are all positive, as they should be: more margin (and more
// still beyond a lead of one whole evidence term), cosine, coverage of the
// request, known words, coverage of the tool and describing words each
// mean more likely right. P(needs a tool) was fitted the same way on the
// awareness dev set (labelled needs_tool; half need none) and its bias
// moved to a prior of 0.9: of the intents sent to a tool router, most need
// a tool.
//
// Regenerate it, with these figures, by 'toolyard train calibration
// --seeds 1,2,3,4,5,6' (training/fit; prints this function's return
// statement). 5-fold cross-validated (six fold shuffles, range), the
// product gives MetaTool ECE 0.014–0.017, activated (≥ 0.85)
// 15.4–15.6% of queries with 95.0–95.5% of them right; awareness AUROC
// 0.839–0.840 (needs a tool vs not), 92.8–93.2% of the queries needing no
// tool below 0.5; Seal-Tools ECE 0.134–0.135 (under-confident: its requests
// are long and share words with many tools), activated 47.7–48.4% with
// 99.1% right.
//
// Before, default-4 (margin, cosine, coverage, known, tool coverage; the
// same need model): MetaTool ECE 0.014–0.018, activated 14.8–15.0% with
// 94.5–94.7% right; awareness AUROC 0.835–0.836, 91.7–92.8% below 0.5;
// Seal-Tools ECE 0.142–0.143, activated 46.7–47.4% with 99.1% right. It was
// calibrated at the top (MetaTool 0.85–0.9: 87.8% right) but did not
// separate enough there: one linear margin weight averaged a shallow slope
// below a lead of 1 with a steeper one above it. With margin_excess the
// clear winners rise and close calls fall (0.85–0.9 holds 192 queries, not
// 221). Describing words, alone a weak signal, recovers Seal-Tools, whose
// long requests have smaller fused margins.
//
// Also tried (CV, seed 1, MetaTool activated / right, Seal-Tools activated):
// margin_excess alone 15.5% / 95.5% but Seal-Tools 45.6%; margin² in place
// of the hinge 15.7% / 95.1%, Seal-Tools 45.6%; plus the runner-up's tool
// coverage margin 15.4% / 95.4%, Seal-Tools 48.1%, with a negative weight
// on that margin (left out: it says a clearer lead makes the tool less
// likely right); the margin as a ratio of the fused score, both sides'
// top-1 agreeing, a name mention, the keyword logit, coverage or cosine
// margins: 94.1–94.7% right, no gain; a loss weighting the rows the model
// puts at 0.7 or more three times: 93.4%; a monotone recalibration of the
// product fitted on inner out-of-fold predictions, Platt on the logit
// 93.4% at 16.5%, isotonic 92.6% at 17.2% (fitted over all three sets they
// carry Seal-Tools' under-confidence onto MetaTool). The older history:
// default-3 (one model of "the top tool is right" over all three sets)
// gave ECE 0.014, activated 15.9% with 94.1% right, AUROC 0.821; priors of
// 0.8 / 0.95 for the need model gave AUROC 0.842 / 0.829 and MetaTool ECE
// 0.032 / 0.015.
func DefaultCalibration() Calibration {
	return Calibration{
		Version:  "default-5",
		Features: []string{FeatureMargin, FeatureCosine, FeatureCoverage, FeatureKnown, FeatureToolCoverage, FeatureMarginExcess, FeatureDescribing},
		Weights:  []float64{1.4267, 1.6982, 2.2042, 0.9695, 2.0334, 0.7989, 0.2806},
		Bias:     -4.3478,
		Need: &NeedModel{
			Features: []string{FeatureCosineBest, FeatureKnown, FeatureSoftKnown, FeatureCoverage, FeatureToolCoverage, FeatureCosine, FeatureDescribing},
			Weights:  []float64{3.1289, 2.0213, 0.6573, 3.1409, 2.5150, 2.4968, 0.4900},
			// -6.3414 fitted on the balanced awareness set (base rate 0.490),
			// plus logit(0.9) - logit(0.490).
			Bias:  -4.1057,
			Prior: 0.9,
		},
		Note: "P(need) x P(right|need), logistic, l2 1e-3; right: metatool queries, awareness needing a tool, sealtools dev top-1, with margin_excess; need: awareness dev, prior 0.9; 5-fold CV figures in the doc comment",
	}
}

// calibModel is a validated Calibration with features resolved to indexes.
type calibModel struct {
	doc     Calibration
	feature []int
	need    *needModel
}

func (c Calibration) compile() (*calibModel, error) {
	if len(c.Features) != len(c.Weights) {
		return nil, fmt.Errorf("calibration %q: %d features but %d weights", c.Version, len(c.Features), len(c.Weights))
	}
	if !finite(c.Bias) {
		return nil, fmt.Errorf("calibration %q: bias %v is not a finite number", c.Version, c.Bias)
	}
	m := &calibModel{doc: c, feature: make([]int, len(c.Features))}
	m.doc.Features, m.doc.Weights = slices.Clone(c.Features), slices.Clone(c.Weights)
	for i, f := range c.Features {
		j := signalIndex(f)
		if j < 0 {
			return nil, fmt.Errorf("calibration %q: unknown feature %q (known: %v)", c.Version, f, FeatureNames())
		}
		if !finite(c.Weights[i]) {
			return nil, fmt.Errorf("calibration %q: weight of %s is %v, not a finite number", c.Version, f, c.Weights[i])
		}
		m.feature[i] = j
	}
	if c.Need != nil {
		need, err := c.Need.compile()
		if err != nil {
			return nil, fmt.Errorf("calibration %q: %w", c.Version, err)
		}
		m.need = need
		n := *c.Need
		n.Features, n.Weights = slices.Clone(n.Features), slices.Clone(n.Weights)
		m.doc.Need = &n
	}
	return m, nil
}

// ParseCalibration reads a Calibration document and checks it.
func ParseCalibration(b []byte) (Calibration, error) {
	var c Calibration
	if err := json.Unmarshal(b, &c); err != nil {
		return Calibration{}, fmt.Errorf("calibration: %w", err)
	}
	if _, err := c.compile(); err != nil {
		return Calibration{}, err
	}
	return c, nil
}

// SetCalibration replaces the confidence model; searches already running
// finish with the old one. An invalid model is refused and the current one
// kept.
func (e *Engine) SetCalibration(c Calibration) error {
	m, err := c.compile()
	if err != nil {
		return fmt.Errorf("discover: %w", err)
	}
	e.calib.Store(m)
	return nil
}

// Calibration returns the confidence model in use.
func (e *Engine) Calibration() Calibration {
	m := e.calibration()
	c := m.doc
	c.Features, c.Weights = slices.Clone(c.Features), slices.Clone(c.Weights)
	if c.Need != nil {
		n := *c.Need
		n.Features, n.Weights = slices.Clone(n.Features), slices.Clone(n.Weights)
		c.Need = &n
	}
	return c
}

func (e *Engine) calibration() *calibModel { return e.calib.Load() }

// probability is σ(bias + w·x) for one candidate's feature vector.
func (m *calibModel) probability(x []float64) float64 {
	z := m.doc.Bias
	for i, j := range m.feature {
		z += m.doc.Weights[i] * x[j]
	}
	return clamp01(sigmoid(z))
}

// confidences sets each candidate's confidence from the model. ps is in
// ranking order. Confidence never rises down the list, so the candidate
// routing acts on is the one it is surest of.
func (m *calibModel) confidences(ps []*pooled) {
	xs := poolFeatures(ps)
	need := 1.0
	if m.need != nil && len(ps) > 0 {
		need = m.need.probability(xs[0])
	}
	for i, p := range ps {
		p.conf = need * m.probability(xs[i])
		if i > 0 {
			p.conf = math.Min(p.conf, ps[i-1].conf)
		}
	}
}

// top2 returns the largest and second-largest value (equal when the best
// is tied); with one candidate the runner-up is 0, no competition.
func top2(ps []*pooled, v func(*pooled) float64) (float64, float64) {
	a, b := math.Inf(-1), math.Inf(-1)
	for _, p := range ps {
		switch x := v(p); {
		case x > a:
			a, b = x, a
		case x > b:
			b = x
		}
	}
	if math.IsInf(b, -1) {
		b = 0
	}
	return a, b
}

func logit(p, limit float64) float64 {
	p = math.Min(math.Max(p, 1e-9), 1-1e-9)
	return math.Max(-limit, math.Min(limit, math.Log(p/(1-p))))
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// DefaultEncoderCalibration is the shipped model for an engine with the
// sentence encoder (WithEncoder), which uses it unless given another. It is
// DefaultCalibration's model refitted the same way (same sets, l2 1e-3,
// prior 0.9) on the encoder's evidence: P(right | need) adds the encoder
// cosine, which takes over most of the word vectors' weight; P(needs a
// tool) adds the encoder's best cosine to any tool and self_serve, how
// close the request is to what the agent does by itself (selfserve.go,
// with a negative weight, as it should be).
//
// Regenerate it, with these figures, by 'toolyard train calibration
// --encoder use-lite --seeds 1,2,3,4,5,6' (training/fit). 5-fold
// cross-validated (six fold shuffles, range): MetaTool ECE
// 0.015–0.017, activated (≥ 0.85) 17.7–17.8% of queries with 94.5–94.9%
// right; awareness AUROC 0.849–0.851 (needs a tool vs not); Seal-Tools
// activated 50.0–50.7% with 99.1–99.7% right. The need factor alone
// separates better (AUROC 0.879; 0.848 without the encoder's features):
// the product also ranks low the requests that need a tool but whose top
// tool is wrong, as a probability of being right must.
//
// Also tried (seed 1): without self_serve, AUROC 0.844–0.846; short
// phrases for the abilities ("write a poem", "give me advice", 17 of them)
// in place of the seven descriptions, 0.849–0.851; the encoder margin in
// either factor, no gain; five descriptions of what tools do (look up live
// data, book or buy, act on my accounts…) as a second prototype feature,
// 0.850–0.851, no gain; MetaTool queries as extra positives of the need
// model, 0.845; a prior of 0.8, AUROC 0.858 but MetaTool ECE 0.035.
func DefaultEncoderCalibration() Calibration {
	return Calibration{
		Version: "encoder-1",
		Features: []string{FeatureMargin, FeatureCosine, FeatureCoverage, FeatureKnown, FeatureToolCoverage, FeatureMarginExcess,
			FeatureDescribing, FeatureEncoderCosine},
		Weights: []float64{1.1303, 0.2082, 1.8920, 0.6790, 1.4057, 0.6454, 0.2305, 3.1887},
		Bias:    -4.3897,
		Need: &NeedModel{
			Features: []string{FeatureCosineBest, FeatureKnown, FeatureSoftKnown, FeatureCoverage, FeatureToolCoverage, FeatureCosine,
				FeatureDescribing, FeatureEncoderBest, FeatureSelfServe},
			Weights: []float64{3.1339, 2.0127, 0.5738, 2.4188, 2.1875, 2.5099, 0.2854, 3.4386, -3.9516},
			// -6.0583 fitted on the balanced awareness set (base rate 0.490),
			// plus logit(0.9) - logit(0.490).
			Bias:  -3.8226,
			Prior: 0.9,
		},
		Note: "default-5 refitted with the sentence encoder: right + encoder_cosine, need + encoder_best, self_serve; 5-fold CV figures in the doc comment",
	}
}
