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
