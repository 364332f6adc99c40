package discover

import (
	"cmp"
	"math"
	"slices"
)

// The keyword confidence heuristic, used when search is keyword-only (the
// hybrid engine has the fitted model of calibration.go, which takes this
// heuristic as one of its features); this is a hand-set formula over evidence anyone can
// check on a result. Confidence is fit × share, combined with a name
// mention:
//
//   - fit = σ(fitBias + fitSlope·coverage) asks whether the tool matches the
//     request at all. Coverage is how much of what the query describes the
//     tool contains, idf-weighted, with words no tool knows counting against
//     it: a tool that speaks to every specific word of the request is likely
//     right; one sharing a single word with a long request is a guess.
//     Coverage is smoothed by coveragePrior, a pseudo-word no tool covers,
//     so that a one- or two-word request, which says little, cannot look
//     fully covered.
//   - share asks whether it is clearly this tool rather than another: a
//     softmax, at temperature shareTemperature, of each candidate's ranking
//     strength (BM25 relative to the best, plus coverage, plus mention)
//     among the strongest competitors. Two tools that match equally well
//     share the probability, so neither is activated and routing offers
//     the choice.
//   - a mention of the tool's name ("disk usage", disk_usage) is strong
//     evidence on its own, combined as independent evidence (noisy-or).
//
// Confidences of one list sum to about 1 at most, as probabilities of "this
// is the tool" should. The constants are round values, checked (not fitted
// to the decimal) on the MetaTool and Seal-Tools dev sets: there, about 19
// in 20 activated top-1 answers are right, the multiple and weak tiers are
// right about as often as their bounds say, and most queries that need no
// tool fall below 0.5 (the package tests log the figures). Reading them: a
// clear winner covering half of the request gets 0.92, a third 0.78, a
// tenth 0.38; two tools tied at full coverage get under 0.5 each.
const (
	fitBias          = -1.25
	fitSlope         = 7.5
	shareTemperature = 0.2
	// coveragePrior is the weight of the pseudo-word, in units of the most
	// specific word possible: one such word covered alone gives coverage 0.5.
	coveragePrior = 1.0
	// mentionTrust is the confidence a mention of a name made only of words
	// unique to the tool gives by itself; less specific names give less.
	mentionTrust = 0.9
)

// strength is what candidates are ranked by and compete on in the share:
// BM25 relative to the best hit (so its scale is the same for any query),
// coverage, and a name mention, each in [0,1].
func strength(ev evidence, best float64) float64 {
	rel := 0.0
	if best > 0 {
		rel = ev.score / best
	}
	return clamp01(rel) + clamp01(ev.coverage) + clamp01(ev.mention)
}

// competitors is how many of the strongest candidates share the
// probability; fixing it keeps a tool's confidence the same whether 1 or 50
// candidates are asked for.
const competitors = 10

// confidences returns each candidate's confidence, in [0,1].
func confidences(evs []evidence) []float64 {
	best := 0.0
	for _, ev := range evs {
		best = math.Max(best, ev.score)
	}
	str := make([]float64, len(evs))
	top := math.Inf(-1)
	for i, ev := range evs {
		str[i] = strength(ev, best)
		top = math.Max(top, str[i])
	}
	// Softmax relative to the strongest, so exp never overflows.
	w := make([]float64, len(evs))
	for i, s := range str {
		w[i] = math.Exp((s - top) / shareTemperature)
	}
	strongest := slices.Clone(w)
	slices.SortFunc(strongest, func(a, b float64) int { return cmp.Compare(b, a) })
	var z float64
	for _, x := range strongest[:min(len(strongest), competitors)] {
		z += x
	}
	out := make([]float64, len(evs))
	for i, ev := range evs {
		fit := sigmoid(fitBias + fitSlope*clamp01(ev.coverage))
		named := mentionTrust * clamp01(ev.mention)
		c := 1 - (1-fit*math.Min(1, w[i]/z))*(1-named)
		out[i] = clamp01(c) // clamp01 also maps NaN to 0
	}
	return out
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

func clamp01(x float64) float64 {
	if math.IsNaN(x) || x < 0 {
		return 0
	}
	return math.Min(x, 1)
}
