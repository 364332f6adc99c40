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
			if _, isNum := parseNumber(cleanValue(f.toks[i].raw)); isNum && f.try(p, cleanValue(f.toks[i].raw)) {
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
