package route

import (
	"math"
	"slices"

	"github.com/toolyard/toolyard/schemas"
)

// How many candidates each tier hands on: the chosen tool and two
// runners-up for the audit trail; three alternatives to choose from; five
// weak matches, since with weak evidence the right tool is more likely to
// be further down.
const (
	activatedMatches = 3
	multipleMatches  = 3
	weakMatches      = 5
)

// Decision is routing's verdict on one intent.
type Decision struct {
	// Tier is one of schemas.TierActivated, TierMultiple, TierWeak, TierNotFound.
	Tier string
	// Matches are the candidates handed on, most confident first: for
	// activated the chosen tool then runners-up (3 in all), for multiple
	// matches 3, for weak matches 5, for not found none.
	Matches []schemas.Candidate
	// Message tells the agent what happened and what to do next.
	Message string
	// Unmatched and Available are set by Route for a not-found intent: the
	// words no tool contains and what the registry offers.
	Unmatched []string
	Available *schemas.Catalog
}

// Decide tiers an intent by the confidence of its most confident candidate.
//
// Candidates are taken most confident first (discovery's order breaks
// ties), so the tool that runs is always the one discovery is surest of. A
// confidence that is NaN counts as 0 and one outside [0,1] is clamped, in
// the tiering and in the returned matches, which must encode as JSON.
// Thresholds that fail Validate are replaced by DefaultThresholds: a bad
// configuration must not activate tools it would not otherwise; callers
// should validate when they load it.
func Decide(c schemas.Candidates, th Thresholds) Decision {
	if th.Validate() != nil {
		th = DefaultThresholds()
	}
	ranked := byConfidence(c.Candidates)
	top := 0.0
	if len(ranked) > 0 {
		top = ranked[0].Confidence
	}
	d := Decision{Tier: th.tier(top)}
	intent := quoteIntent(c.Intent.Text)
	switch d.Tier {
	case schemas.TierActivated:
		d.Matches = head(ranked, activatedMatches)
		d.Message = activatedMessage(intent, d.Matches)
	case schemas.TierMultiple:
		d.Matches = head(ranked, multipleMatches)
		d.Message = offerMessage(intent, d.Matches, multipleMessage)
	case schemas.TierWeak:
		d.Matches = head(ranked, weakMatches)
		d.Message = offerMessage(intent, d.Matches, weakMessage)
	default:
		d.Message = notFoundMessage(intent, head(ranked, nearestShown), nil, nil)
	}
	return d
}

// offerMessage is the message offering matches: a near miss's when the best
// says it does another kind of thing than the intent asks, else message's.
func offerMessage(intent string, ms []schemas.Candidate, message func(string, []schemas.Candidate) string) string {
	if ms[0].Mismatch != nil {
		return nearMissMessage(intent, ms)
	}
	return message(intent, ms)
}

// byConfidence returns a copy of cs with sane confidences, most confident
// first, stable so that discovery's order breaks ties.
func byConfidence(cs []schemas.Candidate) []schemas.Candidate {
	out := slices.Clone(cs)
	for i := range out {
		out[i].Confidence = sane(out[i].Confidence)
	}
	slices.SortStableFunc(out, func(a, b schemas.Candidate) int {
		switch {
		case a.Confidence > b.Confidence:
			return -1
		case a.Confidence < b.Confidence:
			return 1
		}
		return 0
	})
	return out
}

func sane(c float64) float64 {
	if math.IsNaN(c) {
		return 0
	}
	return math.Max(0, math.Min(1, c))
}

func head(cs []schemas.Candidate, n int) []schemas.Candidate {
	if len(cs) > n {
		cs = cs[:n]
	}
	if len(cs) == 0 {
		return nil
	}
	return cs
}
