package resolve

import "strings"

// applyBareQuoted is the second half of rule 3: remaining quoted values
// fill the missing required string properties in declaration order, then
// the free-text property.
func (f *filler) applyBareQuoted(freetext *property) {
	for i, pr := range f.pairs {
		if pr.key != "" || f.pairUsed[i] {
			continue
		}
		for _, p := range f.s.props {
			if p.required && f.missing(p) && (p.typ == "string" || p.typ == "") && len(p.enum) == 0 {
				if f.try(p, pr.value) {
					f.pairUsed[i] = true
				}
				break
			}
		}
		if !f.pairUsed[i] && freetext != nil && f.missing(freetext) && f.try(freetext, pr.value) {
			f.pairUsed[i] = true
		}
	}
}

// freetextTarget is the property rule 6 may fill, or nil.
func (f *filler) freetextTarget() *property {
	var required []*property
	for _, p := range f.s.props {
		if p.required {
			required = append(required, p)
		}
	}
	if len(required) == 1 {
		p := required[0]
		if (p.typ == "string" || p.typ == "") && len(p.enum) == 0 && (p.freetext || freetextNames[strings.ToLower(p.name)]) {
			return p
		}
		return nil
	}
	if len(required) > 0 {
		return nil
	}
	var marked *property
	for _, p := range f.s.props {
		if p.freetext && (p.typ == "string" || p.typ == "") {
			if marked != nil {
				return nil
			}
			marked = p
		}
	}
	return marked
}

// applyFreetext is rule 6.
func (f *filler) applyFreetext(p *property) {
	if p == nil || !f.missing(p) {
		return
	}
	if f.thereIs(p) {
		return
	}
	rest := f.remainder()
	// A free-text parameter with constraints of its own (a host name's
	// pattern) takes the object of the request when the whole rest does
	// not meet them: "what is the ip of localhost" → localhost.
	if rest != "" && !f.fits(p, rest, valueText) {
		if obj := objectOf(rest); obj != "" && f.fits(p, obj, valueText) {
			rest = obj
		}
	}
	if rest != "" && f.try(p, rest) {
		// The rest of the intent is placed: none of its words is left.
		for i := range f.toks {
			f.toks[i].used = true
		}
		for i := range f.pairUsed {
			f.pairUsed[i] = true
		}
	}
}

// remainder is the intent text no rule used, without the tool's own words
// and trimmed of framing words and punctuation.
func (f *filler) remainder() string {
	hidden := make([]bool, len(f.text))
	for i, pr := range f.pairs {
		if f.pairUsed[i] {
			for b := pr.start; b < pr.end; b++ {
				hidden[b] = true
			}
		}
	}
	for _, t := range f.toks {
		if t.used {
			for b := t.start; b < t.end; b++ {
				hidden[b] = true
			}
		}
	}
	words := tokenize(f.text, hidden)
	kept := words[:0]
	for _, w := range words {
		if !f.tool[w.word] {
			kept = append(kept, w)
		}
	}
	for len(kept) > 0 && (fillers[kept[0].word] || kept[0].word == "") {
		kept = kept[1:]
	}
	// At the end also a rank word whose count another rule took: "…, top
	// 3" with 3 in num_results leaves "top".
	for len(kept) > 0 && (fillers[kept[len(kept)-1].word] || kept[len(kept)-1].word == "" ||
		rankWords[kept[len(kept)-1].word] && f.countAfter(kept[len(kept)-1].end)) {
		kept = kept[:len(kept)-1]
	}
	parts := make([]string, len(kept))
	for i, w := range kept {
		parts[i] = w.raw
	}
	return strings.TrimFunc(strings.Join(parts, " "), func(r rune) bool {
		return strings.ContainsRune(`.,;:!?-–—`, r)
	})
}

// objectOf is what follows the last object preposition of text ("ip of
// localhost" → "localhost"), or "".
func objectOf(text string) string {
	words := strings.Fields(text)
	for j := len(words) - 2; j >= 0; j-- {
		if objectPreps[strings.ToLower(words[j])] {
			return strings.Join(words[j+1:], " ")
		}
	}
	return ""
}

// countAfter: the token right after byte end is a number a rule used.
func (f *filler) countAfter(end int) bool {
	for _, t := range f.toks {
		if t.start >= end {
			return t.used && isNumber(t.word)
		}
	}
	return false
}

// hereWords say the asker's own place or time: no value of their own.
var hereWords = setOf("open", "now", "nearby", "here", "around", "near", "close", "closeby", "me", "us", "right")

// thereIs reads the thing an existential question asks for ("is there a
// late-night pharmacy nearby?", "are there any ramen places open?") for
// the free-text parameter: the words after "is there" / "are there", past
// an article or quantifier, to a preposition, a filler, "open" or the end
// of the clause; at most five words, none a verb or pronoun. The rest of
// the request stays for the other rules' reports.
func (f *filler) thereIs(p *property) bool {
	v := f.verbIndex() - 1 // "is" is a filler: the verb index is at "there"
	if v < 0 || v+2 >= len(f.toks) || f.toks[v].word != "is" && f.toks[v].word != "are" || f.toks[v+1].word != "there" || !f.free(v) || !f.free(v+1) {
		return false
	}
	k := v + 2
	for k < len(f.toks) && f.free(k) && (determiners[f.toks[k].word] && f.toks[k].word != "that") {
		k++
	}
	last := k - 1
	for j := k; j < len(f.toks) && f.free(j); j++ {
		w := f.toks[j].word
		if prepositions[w] || objectPreps[w] || placePreps[w] || fillers[w] || subordinators[w] || hereWords[w] {
			break
		}
		if verbs[w] || pronouns[w] || pronounValues[w] || subjectPronouns[w] || j-k >= 5 {
			return false
		}
		last = j
		if endsClause(f.toks[j].raw) {
			break
		}
	}
	if last < k {
		return false
	}
	// Nothing else may be left: what the rest says ("near the museum")
	// is the free text's too, but "open", "nearby", "around here" or "near
	// me" only say where the asker is.
	for j := last + 1; j < len(f.toks); j++ {
		if w := f.toks[j].word; f.free(j) && !hereWords[w] && !fillers[w] && w != "" {
			return false
		}
	}
	if v := f.spanValue(k, last); v != "" && f.fits(p, v, valueText) && f.try(p, v) {
		f.useTokens(rangeIdx(k, last)...)
		return true
	}
	return false
}
