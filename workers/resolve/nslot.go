package resolve

import "strings"

// applyDescribedCounts fills a number parameter whose description writes
// its value as N inside a phrase ("If provided, returns only the first N
// lines of the file") with the number the request writes in the same
// phrase ("read the first 5 lines of notes.txt" → head=5; "the last 3
// lines" → tail=3). The words on both sides of N must match, singular or
// plural, so that "first" alone picks nothing.
func (f *filler) applyDescribedCounts() {
	for _, p := range f.s.props {
		if !f.missing(p) || p.typ != "integer" && p.typ != "number" || len(p.enum) > 0 {
			continue
		}
		before, after, ok := nSlot(p.description)
		if !ok {
			continue
		}
		for i := 1; i+1 < len(f.toks); i++ {
			if !f.free(i-1) || !f.free(i) || !f.free(i+1) || !sameNoun(f.toks[i-1].word, before) || !sameNoun(f.toks[i+1].word, after) {
				continue
			}
			if v, isNum := numeral(f.toks[i].raw); isNum && f.try(p, v) {
				f.useTokens(i-1, i, i+1)
				break
			}
		}
	}
}

// nSlot finds the capital N standing for the value in a description and
// returns the words around it, lower-case and without punctuation.
func nSlot(desc string) (before, after string, ok bool) {
	words := strings.Fields(desc)
	for i := 1; i+1 < len(words); i++ {
		if words[i] != "N" {
			continue
		}
		b, a := strings.ToLower(trimPunct(words[i-1])), strings.ToLower(trimPunct(words[i+1]))
		if b == "" || a == "" || strings.ContainsAny(words[i-1], ".,;:") {
			return "", "", false
		}
		return b, a, true
	}
	return "", "", false
}

// sameNoun: two words that are one noun, singular or plural.
func sameNoun(a, b string) bool {
	return a == b || isHead(a, b) || isHead(b, a)
}

// applySingularCounts is rule singular_counts: "the first line", "the last
// entry" ask for one of what a count parameter counts, though no number is
// written; left alone, the count's default (ten lines) would run instead.
func (f *filler) applySingularCounts() {
	for _, p := range f.s.props {
		if !f.missing(p) || p.typ != "integer" && p.typ != "number" || len(p.enum) > 0 {
			continue
		}
		for i := 0; i+1 < len(f.toks); i++ {
			if !f.free(i) || !f.free(i+1) || !countEnds[f.toks[i].word] || !singularOf(f.toks[i+1].word, p.countedNouns) {
				continue
			}
			if f.try(p, "1") {
				f.useTokens(i, i+1)
				break
			}
		}
	}
}

// countEnds pick from one end of a list: "the first line", "the top result".
var countEnds = setOf("first", "last", "top", "bottom", "latest", "newest", "oldest", "final")

// countedNounsOf are the plural nouns a count parameter counts: the plural
// words of its name (max_results, lines) and the noun its description
// counts ("How many lines to show", "Number of results", "the first N
// lines"). Made once per manifest (property.countedNouns): the count
// rules read them for every count a request writes.
func countedNounsOf(p *property) map[string]bool {
	m := map[string]bool{}
	for _, w := range p.words {
		if strings.HasSuffix(w, "s") && len(w) > 3 {
			m[w] = true
		}
	}
	words := strings.Fields(p.desc)
	for i := 0; i+1 < len(words); i++ {
		switch {
		case words[i] == "many" && i > 0 && words[i-1] == "how", words[i] == "of" && i > 0 && words[i-1] == "number":
			m[trimPunct(words[i+1])] = true
		}
	}
	if _, after, ok := nSlot(p.description); ok {
		m[after] = true
	}
	return m
}

// singularOf: w is the singular of one of the nouns ("line" of "lines").
func singularOf(w string, nouns map[string]bool) bool {
	for n := range nouns {
		if n != w && isHead(n, w) {
			return true
		}
	}
	return false
}

// countBounds write a count as an upper bound: "max 30 results", "top 5".
var countBounds = setOf("max", "maximum", "top")

// resultNouns are what a count of a tool's answers counts, whatever the
// tool: "30 results", "50 rows".
var resultNouns = setOf("results", "items", "entries", "records", "rows", "hits", "matches")

// useCountFrame marks the words that only frame the count at token i,
// placed in p: a bound before it ("max", "top", "up to", "at most") and
// the noun it counts after it (a result noun or one p counts, singular
// too: "30 places" for "Maximum number of places", "a 90 minute review"
// for duration_minutes). They say how many, so no
// free-text rule glues them into what is searched for ("vegan
// restaurants max results"); a noun the count does not name ("15
// dentists") stays the request's.
func (f *filler) useCountFrame(p *property, i int) {
	switch {
	case f.free(i-1) && countBounds[f.toks[i-1].word]:
		f.useTokens(i - 1)
	case f.free(i-2) && f.free(i-1) && (f.toks[i-2].word == "up" && f.toks[i-1].word == "to" || f.toks[i-2].word == "at" && f.toks[i-1].word == "most"):
		f.useTokens(i-2, i-1)
	}
	if endsClause(f.toks[i].raw) || !f.free(i+1) {
		return
	}
	if w := f.toks[i+1].word; resultNouns[w] || p.countedNouns[w] || singularOf(w, p.countedNouns) {
		f.useTokens(i + 1)
	}
}
