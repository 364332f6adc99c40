package resolve

// applyVerbObject reads a direct object: the plain words right after the
// request's verb, when that verb is the tool's own ("translate good
// morning to Spanish" → text "good morning" for Translate text), to the one
// required text parameter still missing. The object rule reads an object
// only after a preposition (for, of, about …); this one stops at the first
// preposition, filler or clause word ("check if there is …") or word
// another rule used, and leaves a reference to what was said before
// ("translate this paragraph") to the context.
func (f *filler) applyVerbObject(free *property) {
	target := f.onlyMissingText()
	// The free-text parameter takes the whole rest of the request
	// (rule freetext), prepositions and all: "echo hello from the moon".
	if target == nil || target == free {
		return
	}
	verb := f.verbIndex()
	if !f.free(verb) || !f.tool[f.toks[verb].word] || endsClause(f.toks[verb].raw) {
		return
	}
	k, last := verb+1, verb
	for j := k; j < len(f.toks) && j-k < 8 && f.free(j); j++ {
		w := f.toks[j].word
		if prepositions[w] || objectPreps[w] || languagePreps[w] || placePreps[w] || f.tool[w] || fillers[w] || subordinators[w] {
			break
		}
		last = j
		if endsClause(f.toks[j].raw) {
			break
		}
	}
	if last < k {
		return
	}
	// A switching particle is a state, not an object ("lights off in
	// the kitchen"): rule states places it, if anything takes it.
	if w := f.toks[k].word; determiners[w] || pronouns[w] || vague[w] || w == "on" || w == "off" {
		return
	}
	if f.try(target, f.spanValue(k, last)) {
		f.useTokens(rangeIdx(k, last)...)
	}
}

// subordinators open a clause, not an object: "check if …", "see whether …".
var subordinators = setOf("if", "whether", "when", "where", "how", "why", "who", "whom", "whose", "there", "because", "while", "than", "unless")

// verbIndex is the token of the request's verb: its first word after
// "please", "can you" and the like; a framing word of the tool's own
// ("find" for a file finder) is the verb itself.
func (f *filler) verbIndex() int {
	v := 0
	for v < len(f.toks) && f.free(v) && fillers[f.toks[v].word] && !f.tool[f.toks[v].word] {
		v++
	}
	return v
}

// onlyMissingText is the one required parameter still missing when it is
// plain text (no id, date or time); nil when there is none, or when
// another required parameter is missing too.
func (f *filler) onlyMissingText() *property {
	var target *property
	for _, p := range f.s.props {
		if p.required && f.missing(p) {
			if !stringProp(p) || isIDProp(p) || isDateProp(p) || isTimeProp(p) || dateTimeProp(p) || target != nil {
				return nil
			}
			target = p
		}
	}
	return target
}
