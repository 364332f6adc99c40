package llmresolve

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/resolve"
)

// Choice is the candidate the model picked for a medium-tier intent.
type Choice struct {
	Candidate schemas.Candidate
	// Confidence is the model's (routing's, when the model gave none).
	Confidence float64
	Reasoning  string
}

// Disambiguate asks the model which of a multiple_matches intent's
// candidates the agent meant, reading the conversation before it. ok is
// true only when the model picks one of matches with at least the minimum
// confidence; otherwise the agent should be offered the matches as usual.
// lookup, when not nil, adds each candidate's parameters to the prompt.
// An error (model unreachable, timeout, unusable answer after the retry)
// comes with ok false.
func (r *Resolver) Disambiguate(ctx context.Context, in schemas.Intent, matches []schemas.Candidate, lookup resolve.Lookup) (c Choice, ok bool, err error) {
	if len(matches) == 0 {
		return c, false, nil
	}
	es := make([]entry, 0, len(matches))
	for _, m := range matches {
		e := entry{cand: m, tool: schemas.Manifest{ID: m.ToolID, Name: m.Name, Description: m.Description, Server: m.Server}}
		if lookup != nil {
			if t, found := lookup(m.ToolID); found {
				e.tool, e.params = t, readParams(t.Parameters)
			}
		}
		es = append(es, e)
	}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.timeout)
	defer cancel()
	a, chosen, err := r.analyse(ctx, in, es, r.cfg.turns)
	var declined *DeclinedError
	switch {
	case errors.As(err, &declined):
		return Choice{Reasoning: "declined: " + declined.Reason}, false, nil
	case err != nil:
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("the model did not answer within %s: %w", r.cfg.timeout, err)
		}
		return c, false, fmt.Errorf("llm disambiguation of intent %s: %w", in.ID, err)
	case chosen == nil:
		return Choice{Reasoning: a.reasoning}, false, nil
	}
	c = Choice{Candidate: chosen.cand, Confidence: chosen.cand.Confidence, Reasoning: a.reasoning}
	if a.hasConfidence {
		c.Confidence = a.confidence
	}
	return c, c.Confidence >= r.cfg.minConfidence, nil
}
