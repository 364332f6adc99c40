package discover

import "strings"

// phraseMatches sets each pooled tool's phraseMatch: the share of the
// query's describing terms that lie inside a run of query words equal to
// one of the tool's names or keywords ("uptime", "load average", "disk
// usage"). A request that is the tool's own phrase ("whoami", "free disk
// space") says so more surely than words scattered over its description,
// and unlike a score it means the same in a registry of 30 tools as of
// 4,000. Names and keywords are kept in exact form at indexing, so a
// search only scans strings; terms are analysed only for a match. Caller
// holds the read lock.
func (e *Engine) phraseMatches(q parsedQuery, order []*pooled) {
	if len(q.words) == 0 || len(q.describing) == 0 {
		return
	}
	// A phrase whose first word the request lacks cannot be in it: most
	// phrases of a pool are ruled out by a lookup instead of a scan.
	asked := make(map[string]bool, len(q.words))
	for _, w := range q.words {
		asked[w] = true
	}
	for _, p := range order {
		var covered map[string]bool
		for _, list := range [2][]string{p.en.names, p.en.phrases} {
			for _, phrase := range list {
				first, _, _ := strings.Cut(phrase, " ")
				if !asked[first] || !containsRun(q.spaced, phrase) {
					continue
				}
				if covered == nil {
					covered = map[string]bool{}
				}
				for _, t := range e.phraseTerms(phrase) {
					covered[t] = true
				}
			}
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

// containsRun says whether text (words joined by single spaces, with a
// space at each end) holds phrase as whole words.
func containsRun(text, phrase string) bool {
	if phrase == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(text[i:], phrase)
		if j < 0 {
			return false
		}
		j += i
		if j > 0 && text[j-1] == ' ' && j+len(phrase) < len(text) && text[j+len(phrase)] == ' ' {
			return true
		}
		i = j + 1
	}
}

// phraseMemoMax bounds the phrases whose terms are remembered: a registry's
// names and keywords, a few per tool; past it the memo starts afresh.
const phraseMemoMax = 1 << 18

// phraseTerms are the analysed terms of a name or keyword phrase, word by
// word. Phrases are the registry's and come back search after search, and
// analysing a word costs more than the rest of a match: they are kept.
func (e *Engine) phraseTerms(phrase string) []string {
	if ts, ok := e.phraseMemo.Load(phrase); ok {
		return ts.([]string)
	}
	var ts []string
	for _, w := range strings.Fields(phrase) {
		ts = append(ts, terms(e.text, w)...)
	}
	if e.phraseMemoN.Add(1) > phraseMemoMax {
		e.phraseMemo.Clear()
		e.phraseMemoN.Store(0)
	}
	e.phraseMemo.Store(phrase, ts)
	return ts
}
