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
