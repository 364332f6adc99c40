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
	var target *property
	for _, p := range f.s.props {
		if p.required && f.missing(p) {
			if !stringProp(p) || isIDProp(p) || isDateProp(p) || isTimeProp(p) || target != nil {
				return
			}
			target = p
		}
	}
	// The free-text parameter takes the whole rest of the request
	// (rule freetext), prepositions and all: "echo hello from the moon".
	if target == nil || target == free {
		return
	}
	verb := 0
	for verb < len(f.toks) && f.free(verb) && fillers[f.toks[verb].word] && !f.tool[f.toks[verb].word] {
		verb++ // "please translate", "can you translate"
	}
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
	if w := f.toks[k].word; determiners[w] || pronouns[w] || vague[w] {
		return
	}
	if f.try(target, f.spanValue(k, last)) {
		f.useTokens(rangeIdx(k, last)...)
	}
}

// subordinators open a clause, not an object: "check if …", "see whether …".
var subordinators = setOf("if", "whether", "when", "where", "how", "why", "who", "whom", "whose", "there", "because", "while", "than", "unless")

// objectPronouns are who a request's verb is about before what it asks
// done: "remind me to …", "tell them to …".
var objectPronouns = setOf("me", "us", "him", "her", "them", "you")

// applyPurposeClause reads what the tool's word asks done, the clause
// after it, its object and "to" ("remind me to call Ann", "remind us
// tomorrow at 9 to water the plants", "a reminder for Friday at 5 to
// submit the report": the moment between is another rule's), for the one
// required text parameter still missing. Left to the names rule,
// "remind me tomorrow at 9am to call Ann" put "Ann" in the reminder's
// text. The clause runs to the end of the sentence or to a word another
// rule used, at most twelve words.
func (f *filler) applyPurposeClause(free *property) {
	var target *property
	for _, p := range f.s.props {
		if p.required && f.missing(p) {
			if !stringProp(p) || isIDProp(p) || isDateProp(p) || isTimeProp(p) || dateTimeProp(p) || target != nil {
				return
			}
			target = p
		}
	}
	if target == nil || target == free {
		return
	}
	k := f.purposeTo()
	if k < 0 {
		return
	}
	first, last := k+1, k
	for j := first; j < len(f.toks) && j-first < 12 && f.free(j); j++ {
		last = j
		if endsClause(f.toks[j].raw) {
			break
		}
	}
	// A clause cut short by a value another rule took ends on the words
	// that led to it: "to grasp objects using the <dataset>".
	for last >= first && (fillers[f.toks[last].word] || prepositions[f.toks[last].word] || determiners[f.toks[last].word]) {
		last--
	}
	if last < first {
		return
	}
	if f.try(target, f.spanValue(first, last)) {
		f.useTokens(rangeIdx(first, last)...)
	}
}

// purposeTo is the token "to" that opens a purpose clause: after a word of
// the tool's own, an object pronoun or not, and words other rules used;
// -1 when there is none.
func (f *filler) purposeTo() int {
	for j := 0; j < len(f.toks); j++ {
		if !f.free(j) || !f.tool[f.toks[j].word] || endsClause(f.toks[j].raw) {
			continue
		}
		k := j + 1
		if k < len(f.toks) && f.free(k) && objectPronouns[f.toks[k].word] {
			k++
		}
		// The moment written between, with its preposition: "for Friday
		// at 5".
		for k < len(f.toks) && (f.toks[k].used || (prepositions[f.toks[k].word] || fillers[f.toks[k].word]) && k+1 < len(f.toks) && f.toks[k+1].used) {
			k++
		}
		if f.free(k) && f.toks[k].word == "to" && f.free(k+1) && f.verbLike(k+1) {
			return k
		}
	}
	return -1
}

// verbLike: token i can open a clause's verb ("to call", "to submit"), as
// no determiner, preposition, pronoun, number or capitalised name can
// ("to the server", "to Berlin", "to it").
func (f *filler) verbLike(i int) bool {
	w := f.toks[i].word
	return !determiners[w] && !prepositions[w] && !pronouns[w] && !objectPronouns[w] && !notVerbs[w] && !isNumber(w) && !capWord(f.toks[i].raw)
}

// notVerbs are the framing words that cannot open a purpose clause; the
// framing verbs (call, find, show …) can.
var notVerbs = setOf("a", "an", "the", "it", "this", "that", "which", "who", "what", "whats", "what's", "i", "my", "some", "any", "and", "or")
