package discover

import (
	"slices"
	"sort"

	"github.com/toolyard/toolyard/schemas"
)

// evidence is what the confidence of one candidate is computed from.
type evidence struct {
	// score is the tool's BM25 score.
	score float64
	// coverage is the idf-weighted share of the query's describing terms
	// (plus the prior pseudo-term) the tool contains: how much of the
	// request the tool speaks to.
	coverage float64
	// mention is the specificity of an exact name mention, 0 without one.
	mention float64
}

type scored struct {
	en   *entry
	ev   evidence
	conf float64
}

// rank attaches evidence and confidence to hits and orders them by
// confidence. Caller holds the read lock.
func (e *Engine) rank(q parsedQuery, hits []hit, mentioned map[string]float64) []schemas.Candidate {
	weights, total := e.describingWeights(q)
	list := make([]scored, 0, len(hits))
	nums := e.stats.termNums(q.describing)
	for _, h := range hits {
		en := e.tools[h.id]
		ev := evidence{score: h.score, mention: mentioned[h.id]}
		var covered float64
		for i, id := range nums {
			if en.hasTerm(id) {
				covered += weights[i]
			}
		}
		if total > 0 {
			ev.coverage = covered / total
		}
		list = append(list, scored{en: en, ev: ev})
	}
	evs := make([]evidence, len(list))
	for i, l := range list {
		evs[i] = l.ev
	}
	for i, c := range confidences(evs) {
		list[i].conf = c
	}
	// Ranked by confidence, so the tool routing acts on is the one it is
	// surest of, and confidence never rises down the list.
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.conf != b.conf {
			return a.conf > b.conf
		}
		if a.ev.score != b.ev.score {
			return a.ev.score > b.ev.score
		}
		return a.en.cand.ToolID < b.en.cand.ToolID
	})
	out := make([]schemas.Candidate, len(list))
	for i, s := range list {
		c := s.en.cand
		c.Keywords = slices.Clone(c.Keywords)
		c.Score = s.ev.score
		c.Confidence = s.conf
		out[i] = c
	}
	return out
}

// describingWeights are the idf weights of the query's describing terms and
// their total with the coverage prior. A term no tool contains weighs as
// much as one only a single tool contains, since both are as specific as a
// term can be, and leaving it unmatched is just as telling. The prior adds
// a pseudo-term no tool covers (see coveragePrior). Caller holds the read lock.
func (e *Engine) describingWeights(q parsedQuery) ([]float64, float64) {
	maxIDF := e.stats.maxIDF()
	// A slice, not a map: sums must add up in the same order every time,
	// or rounding could reorder tied candidates from one call to the next.
	weights := make([]float64, len(q.describing))
	var total float64
	for i, t := range q.describing {
		w := e.stats.idf(t)
		if w == 0 {
			w = maxIDF
		}
		weights[i] = w
		total += w
	}
	return weights, total + coveragePrior*maxIDF
}
