package discover

import "strings"

// mentions finds tools the query names outright ("disk usage", "disk_usage",
// "system/disk_usage" for tool system/disk_usage; "get weather" for
// getWeather) and how telling each mention is, by looking every run of
// query words up in the name table. Cost depends on the query length, not
// on the registry size. A nil allowed admits every tool. Caller holds the
// read lock.
func (e *Engine) mentions(words []string, allowed func(*entry) bool) map[string]float64 {
	var out map[string]float64
	for i := range words {
		// A one-word name ("calculator", "local", "now") is an ordinary word
		// and its use says little more than any other query term, which
		// BM25 already weighs; naming takes at least two words in sequence.
		for n := 2; n <= e.stats.maxNameWords && i+n <= len(words); n++ {
			form := strings.Join(words[i:i+n], " ")
			for _, id := range e.stats.names[form] {
				en := e.tools[id]
				if en == nil || (allowed != nil && !allowed(en)) {
					continue
				}
				s := e.specificity(form)
				if out == nil {
					out = map[string]float64{}
				}
				if s > out[id] {
					out[id] = s
				}
			}
		}
	}
	return out
}

// specificity says how surely a mention of name means the tool, in [0,1]:
// naming "system disk usage" leaves no doubt, but "get data" or "run
// report" may well be ordinary words of a request. Each content term of the
// name adds evidence in proportion to its idf relative to the most specific
// term possible, combined as independent evidence.
func (e *Engine) specificity(name string) float64 {
	maxIDF := e.stats.maxIDF()
	if maxIDF <= 0 {
		return 0
	}
	miss := 1.0
	for _, t := range uniqueSorted(terms(e.text, name)) {
		miss *= 1 - min(1, e.stats.idf(t)/maxIDF)
	}
	return 1 - miss
}
