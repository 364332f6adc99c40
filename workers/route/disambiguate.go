package route

import (
	"context"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// Choice is a disambiguator's verdict on a medium-tier intent.
type Choice struct {
	// ToolID is the chosen tool, one of the matches; empty means "none of
	// them surely": the alternatives go back to the agent.
	ToolID string
	// Confidence is the disambiguator's confidence in ToolID, in [0,1].
	Confidence float64
	// Reason explains the choice, for the audit record.
	Reason string
}

// Disambiguator picks the tool a medium-tier intent means, with whatever
// context it has (the intent carries the conversation and the text around
// the marker). An LLM implements it; none is configured by default, and
// then the alternatives are answered to the agent.
type Disambiguator interface {
	Choose(ctx context.Context, intent schemas.Intent, matches []schemas.Candidate) (Choice, error)
}

// DefaultChooseTimeout bounds one Choose call: past it the agent gets the
// alternatives, as without a disambiguator.
const DefaultChooseTimeout = 20 * time.Second

// DefaultMinChoice is the confidence below which a choice is not trusted
// and the alternatives are answered instead.
const DefaultMinChoice = 0.7

// WithDisambiguator has the choose stage ask d to pick among the matches of
// a medium-tier intent, with at most timeout per call (DefaultChooseTimeout
// when 0). A choice with confidence below DefaultMinChoice, an error or a
// timeout answers the alternatives to the agent.
func WithDisambiguator(d Disambiguator, timeout time.Duration) Option {
	return func(o *options) {
		o.disambiguator = d
		o.chooseTimeout = timeout.Seconds()
	}
}

// choose asks the disambiguator and returns the routed hand-off to
// resolution when it picked one of the matches surely; ok is false when the
// alternatives should be answered, with the reason.
func choose(ctx context.Context, o options, r schemas.Routed) (out schemas.Routed, ok bool, reason string) {
	if o.disambiguator == nil {
		return r, false, "no disambiguator configured"
	}
	timeout := DefaultChooseTimeout
	if o.chooseTimeout > 0 {
		timeout = time.Duration(o.chooseTimeout * float64(time.Second))
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c, err := o.disambiguator.Choose(cctx, r.Intent, r.Candidates)
	switch {
	case err != nil:
		return r, false, "disambiguator failed: " + err.Error()
	case c.ToolID == "":
		return r, false, "disambiguator chose none: " + c.Reason
	case !(c.Confidence >= DefaultMinChoice):
		return r, false, "disambiguator unsure of " + c.ToolID + ": " + c.Reason
	}
	chosen := -1
	for i, m := range r.Candidates {
		if m.ToolID == c.ToolID {
			chosen = i
			break
		}
	}
	if chosen < 0 {
		return r, false, "disambiguator chose " + c.ToolID + ", which is not among the matches"
	}
	ranked := make([]schemas.Candidate, 0, len(r.Candidates))
	ranked = append(ranked, r.Candidates[chosen])
	for i, m := range r.Candidates {
		if i != chosen {
			ranked = append(ranked, m)
		}
	}
	out = r
	out.Tier, out.Candidates, out.DecidedBy = schemas.TierActivated, ranked, DecidedByDisambiguator
	out.Message = ""
	return out, true, c.Reason
}

// What chose a routed intent's tool.
const (
	DecidedByConfidence    = "confidence"
	DecidedByDisambiguator = "disambiguator"
)

// Disambiguate runs the configured disambiguator (WithDisambiguator) on a
// medium-tier routed intent, as the choose stage does: ok reports that it
// picked one of the matches surely, and out is then the activated hand-off
// with the chosen tool first; otherwise reason says why not.
func Disambiguate(ctx context.Context, r schemas.Routed, opts ...Option) (out schemas.Routed, ok bool, reason string) {
	return choose(ctx, newOptions(opts), r)
}
