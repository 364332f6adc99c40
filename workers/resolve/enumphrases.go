package resolve

// Enum phrases: an enum member of several words joined for a program
// (next_day, out_of_stock, fixed-amount, FreeShipping) is written in a
// request as the words themselves ("DHL next day", "because it's out of
// stock"). enum_words reads one word at a time, so such a member was never
// read: a required enum was asked of the agent although the request said
// it, and its words ran into the free-text parameter.

// enumPhrase is a member of several words and the tokens that write it.
type enumPhrase struct {
	p      *property
	member string
	toks   []int
}

// applyEnumPhrases is the rule enum_phrases: a member written as its words,
// to the one missing parameter whose enum holds it; a parameter with two
// members written, or words that write members of two parameters, take
// nothing.
func (f *filler) applyEnumPhrases() {
	var hits []enumPhrase
	owners := map[int]int{}
	for _, p := range f.s.props {
		if len(p.enum) == 0 || !f.missing(p) {
			continue
		}
		for _, e := range p.enum {
			s, ok := e.(string)
			if !ok {
				continue
			}
			if words := nameWords(s); len(words) > 1 {
				if idx, ok := f.phraseAt(words); ok {
					hits = append(hits, enumPhrase{p, s, idx})
					for _, i := range idx {
						owners[i]++
					}
				}
			}
		}
	}
	for _, h := range hits {
		if f.onlyPhraseOf(h, hits, owners) && f.try(h.p, h.member) {
			f.useTokens(h.toks...)
		}
	}
}

// onlyPhraseOf: h is the one member written for its parameter, and its
// words write no other parameter's.
func (f *filler) onlyPhraseOf(h enumPhrase, hits []enumPhrase, owners map[int]int) bool {
	for _, o := range hits {
		if o.p == h.p && o.member != h.member {
			return false
		}
	}
	for _, i := range h.toks {
		if owners[i] > 1 {
			return false
		}
	}
	return f.missing(h.p)
}

// phraseAt finds words written in a row by unused tokens within one clause,
// not right after a negation ("not out of stock" asks for no member).
func (f *filler) phraseAt(words []string) ([]int, bool) {
	for i := range f.toks {
		if f.wordsAt(i, words...) && (i == 0 || !negations[f.toks[i-1].word] && f.toks[i-1].word != "no") {
			return rangeIdx(i, i+len(words)-1), true
		}
	}
	return nil, false
}
