package resolve

import "slices"

// applyEnumPhrases is the enum_phrases rule: an enum member made of
// several words (REQUEST_CHANGES, "dry-run", inProgress) written as its
// words in order ("request changes on #77", "mark it in progress") fills
// its parameter, when it is the one member of that parameter written so.
// enum_words reads one word at a time, and the words of such a member
// match none, so the value was asked for again.
func (f *filler) applyEnumPhrases() {
	for _, p := range f.s.props {
		if len(p.enum) == 0 || !f.missing(p) {
			continue
		}
		var found string
		var at []int
		for _, e := range p.enum {
			s, ok := e.(string)
			if !ok || !manyWords(s) {
				continue
			}
			if idx := f.wordsIndex(nameWords(s)); idx != nil {
				if found != "" {
					found = "" // two members written: which is not said
					break
				}
				found, at = s, idx
			}
		}
		if found != "" && f.try(p, found) {
			f.useTokens(at...)
		}
	}
}

// manyWords: the member s is written as several words (a separator, or a
// capital after a lower-case letter), checked before splitting it, since
// most members are one word.
func manyWords(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '-' || c == ' ' || i > 0 && c >= 'A' && c <= 'Z' && s[i-1] >= 'a' && s[i-1] <= 'z' {
			return true
		}
	}
	return false
}

// wordsIndex finds ws, two or more words, as free tokens in a row within
// a clause: their indexes, or nil.
func (f *filler) wordsIndex(ws []string) []int {
	if len(ws) < 2 {
		return nil
	}
	for i := 0; i+len(ws) <= len(f.toks); i++ {
		if words, _, ok := f.freeWords(i, i+len(ws)-1); ok && slices.Equal(words, ws) {
			return rangeIdx(i, i+len(ws)-1)
		}
	}
	return nil
}
