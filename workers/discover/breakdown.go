package discover

import "context"

// Contribution is one term of a confidence model for one candidate: the
// signal's value and the weight the model gives it. Weight × Value is what
// the term adds to the model's logit.
type Contribution struct {
	Term   string  `json:"term"`
	Doc    string  `json:"doc,omitempty"`
	Value  float64 `json:"value"`
	Weight float64 `json:"weight"`
}

// Breakdown is how a confidence model reaches the confidence of a search's
// top candidate, the one routing acts on: P(right | needs a tool) from its
// terms, and P(needs a tool) from the need model's, multiplied, or (for a
// trained model, NeedTerm set) the need's logit added as one more term.
type Breakdown struct {
	Calibration string         `json:"calibration"`
	Right       []Contribution `json:"right"`
	RightBias   float64        `json:"right_bias"`
	// Need is empty without a need model; PNeed is then 1.
	Need     []Contribution `json:"need,omitempty"`
	NeedBias float64        `json:"need_bias,omitempty"`
	PNeed    float64        `json:"p_need"`
	// NeedTerm is the weight of logit P(need) in the right model's sum,
	// when the model adds it there instead of multiplying.
	NeedTerm *float64 `json:"need_term,omitempty"`
	// PRight is P(right | needs a tool), or with NeedTerm the whole
	// confidence.
	PRight     float64 `json:"p_right"`
	Confidence float64 `json:"confidence"`
}

// Breakdown returns the terms of c for a candidate with the given signals
// (Explained.Signals); its Confidence equals c.Confidence(signals).
func (c Calibration) Breakdown(signals map[string]float64) Breakdown {
	b := Breakdown{Calibration: c.Version, RightBias: c.Bias}
	b.Right = contributions(c.Features, c.Weights, signals)
	if c.Need != nil {
		b.Need = contributions(c.Need.Features, c.Need.Weights, signals)
		b.NeedBias, b.NeedTerm = c.Need.Bias, c.NeedTerm
	}
	b.PNeed, b.PRight, b.Confidence = c.parts(signals)
	return b
}

func contributions(features []string, weights []float64, signals map[string]float64) []Contribution {
	out := make([]Contribution, len(features))
	for i, f := range features {
		out[i] = Contribution{Term: f, Doc: termDoc(f), Value: TermValue(f, signals), Weight: weights[i]}
	}
	return out
}

// Reasons is a search explained: its best candidates with their signals,
// and how the confidence model in force for it (a trained model's when the
// top tool has history, else the engine's) reached the top candidate's
// confidence.
type Reasons struct {
	Candidates []Explained `json:"candidates"`
	Top        *Breakdown  `json:"top,omitempty"`
	// Asked are the kinds of effect the request asks for (read, create,
	// update, delete: action.go), none when its verbs do not say.
	Asked []string `json:"asked,omitempty"`
}

// Why ranks text as a search does and says why each of its best k
// candidates got its confidence. Like Explain it needs the engine's
// vectors: a keyword-only engine returns no reasons.
func (e *Engine) Why(ctx context.Context, text string, k int) (Reasons, error) {
	if k <= 0 {
		k = e.cfg.topK
	}
	ex, c, asked, err := e.explainWith(ctx, text, k, k)
	if err != nil || len(ex) == 0 {
		return Reasons{}, err
	}
	b := c.Breakdown(ex[0].Signals)
	return Reasons{Candidates: ex, Top: &b, Asked: asked.Names()}, nil
}
