package resolve

import "strings"

// Marked: a thing is described by its parameter's name as a participle
// before the values ("customers tagged wholesale", "create a customer
// tagged vip and wholesale", "issues labelled urgent"). named_it reads the
// verb with its object ("tag them as urgent"); the participle has none,
// so its values were dropped, or the list rule took the participle for an
// item ("tagged vip").

// applyMarked is the rule marked: the values after a participle of a
// missing parameter's one-word name (tag → tagged), a list to an array of
// strings, one word that ends its clause to a string.
func (f *filler) applyMarked() {
	for _, p := range f.s.props {
		if !f.missing(p) || len(p.words) != 1 || !(stringProp(p) || p.typ == "array") {
			continue
		}
		for i := 0; i+1 < len(f.toks); i++ {
			if f.free(i) && f.free(i+1) && !endsClause(f.toks[i].raw) && participleOf(p.words[0], f.toks[i].word) && f.markedValues(p, i+1) {
				f.useTokens(i)
				break
			}
		}
	}
}

// participleOf: word is the past participle of the verb a name is (tag →
// tagged, label → labelled or labeled, mark → marked); a name in the
// plural is the verb's third person (tags).
func participleOf(name, word string) bool {
	name = strings.TrimSuffix(name, "s")
	return strings.HasSuffix(word, "ed") && inflects(name, word)
}

// markedValues places what follows the participle at token i: a list for
// an array; for a string a single word that ends its clause ("tagged
// wholesale, ten at most"): "titled Login returns 500" is a title of more
// words, the titled rule's.
func (f *filler) markedValues(p *property, i int) bool {
	if f.toks[i].word == "as" || f.toks[i].word == "with" {
		i++
	}
	if i >= len(f.toks) || !f.free(i) || fillers[f.toks[i].word] || determiners[f.toks[i].word] {
		return false
	}
	if p.typ == "array" {
		// A list of words is a guess for an array of strings only: for
		// numbers or a bounded list it would fail the schema where
		// leaving the parameter unset would not.
		items, last := f.listAt(i)
		if len(items) == 0 || p.items == nil || !stringProp(p.items) {
			return false
		}
		f.store(p, items)
		f.useTokens(rangeIdx(i, last)...)
		return true
	}
	if last := i+1 == len(f.toks) || endsClause(f.toks[i].raw); last && f.try(p, f.toks[i].value) {
		f.useTokens(i)
		return true
	}
	return false
}
