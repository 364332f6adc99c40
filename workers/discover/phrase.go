package discover

import (
	"slices"
	"strings"
)

// phraseMatches sets each pooled tool's phraseMatch: the share of the
// query's describing terms that lie inside a run of query words equal to
// one of the tool's names or keywords ("uptime", "load average", "disk
// usage"). A request that is the tool's own phrase ("whoami", "free disk
// space") says so more surely than words scattered over its description,
// and unlike a score it means the same in a registry of 30 tools as of
// 4,000. Caller holds the read lock.
func (e *Engine) phraseMatches(q parsedQuery, order []*pooled) {
	if len(q.words) == 0 || len(q.describing) == 0 {
		return
	}
	for _, p := range order {
		covered := map[string]bool{}
		for _, phrase := range p.en.names {
			e.markRun(q, strings.Fields(phrase), covered)
		}
		for _, kw := range p.en.cand.Keywords {
			e.markRun(q, terms(e.exact, kw), covered)
		}
		n := 0
		for _, t := range q.describing {
			if covered[t] {
				n++
			}
		}
		p.phraseMatch = float64(n) / float64(len(q.describing))
	}
}

// markRun marks the analysed terms of every run of query words equal to
// phrase.
func (e *Engine) markRun(q parsedQuery, phrase []string, covered map[string]bool) {
	if len(phrase) == 0 || len(phrase) > len(q.words) {
		return
	}
	for i := 0; i+len(phrase) <= len(q.words); i++ {
		if slices.Equal(q.words[i:i+len(phrase)], phrase) {
			for _, w := range phrase {
				for _, t := range terms(e.text, w) {
					covered[t] = true
				}
			}
		}
	}
}

// rivalOverlaps sets each pooled tool's rivalOverlap: the idf-weighted
// share of its terms that its strongest rival (the top tool, or for the
// top tool the runner-up) also has. Two near-duplicate tools at the top
// ("search flights" and "book flights") leave the choice open whatever
// the scores say; a top tool unlike anything near it does not. order is
// in ranking order. Caller holds the read lock.
func (e *Engine) rivalOverlaps(order []*pooled) {
	if len(order) < 2 {
		return
	}
	for i, p := range order {
		rival := order[0]
		if i == 0 {
			rival = order[1]
		}
		p.rivalOverlap = e.overlap(p.en.terms, rival.en.terms)
	}
}

// overlap is Σ idf(t) over a's terms also in b, over Σ idf(t) over a's;
// both are sorted.
func (e *Engine) overlap(a, b []string) float64 {
	var shared, total float64
	j := 0
	for _, t := range a {
		w := e.stats.idf(t)
		total += w
		for j < len(b) && b[j] < t {
			j++
		}
		if j < len(b) && b[j] == t {
			shared += w
		}
	}
	if total == 0 {
		return 0
	}
	return shared / total
}
