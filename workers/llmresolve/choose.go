package llmresolve

import (
	"context"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/resolve"
	"github.com/toolyard/toolyard/workers/route"
)

// Chooser is the Resolver as routing's medium-tier disambiguator
// (route.WithDisambiguator).
type Chooser struct {
	r      *Resolver
	lookup resolve.Lookup
}

var _ route.Disambiguator = Chooser{}

// Chooser returns r as a route.Disambiguator; lookup, when not nil, shows
// the model each candidate's parameters.
func (r *Resolver) Chooser(lookup resolve.Lookup) Chooser { return Chooser{r: r, lookup: lookup} }

// Choose names the candidate the model picked with its confidence (routing
// decides whether that is sure enough), or none when the model declines.
func (c Chooser) Choose(ctx context.Context, in schemas.Intent, matches []schemas.Candidate) (route.Choice, error) {
	ch, _, err := c.r.Disambiguate(ctx, in, matches, c.lookup)
	if err != nil {
		return route.Choice{}, err
	}
	return route.Choice{ToolID: ch.Candidate.ToolID, Confidence: ch.Confidence, Reason: ch.Reasoning}, nil
}
