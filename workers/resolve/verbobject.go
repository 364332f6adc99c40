package resolve

import "strings"

// applyVerbObject reads a direct object: the plain words right after the
// request's verb, when that verb is the tool's own ("translate good
// morning to Spanish" → text "good morning" for Translate text), to the one
// required text parameter still missing. The object rule reads an object
// only after a preposition (for, of, about …); this one stops at the first
// preposition, filler or clause word ("check if there is …") or word
// another rule used, and leaves a reference to what was said before
// ("translate this paragraph") to the context.
func (f *filler) applyVerbObject(free *property) {
	f.workTitle()
	target := f.onlyMissingText()
	if target == nil && !f.requiredMissing() {
		f.whatObject()
		return
	}
	// The free-text parameter takes the whole rest of the request
	// (rule freetext), prepositions and all: "echo hello from the moon".
	if target == nil || target == free || fitsName(target, durationNames) {
		return // a length of time is read by its unit (rule durations), not placed
	}
	verb := f.verbIndex()
	k := f.ownVerbEnd(verb) + 1
	if k == 0 {
		return
	}
	last := verb
	if f.particleAt(verb, k) {
		k++ // "look up …": the particle is the verb's (rule particles)
	}
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

// whatVerbs ask for a thing to be played or found, with the particle
// some take ("put on", "search for", "look up", "listen to").
var whatVerbs = map[string]string{"play": "", "put": "on", "search": "for", "find": "", "look": "up", "listen": "to", "stream": "", "queue": ""}

// whatNames name the one parameter that says what to play or look for.
var whatNames = setOf("query", "q", "search", "term", "terms", "keyword", "keywords")

// requiredMissing: some required parameter is still missing.
func (f *filler) requiredMissing() bool {
	for _, p := range f.s.props {
		if p.required && f.missing(p) {
			return true
		}
	}
	return false
}

// whatObject reads the object of a verb that asks for a thing played or
// found ("play some bossa nova", "put on Nina Simone's first record in
// the den", "search for vintage lamps") for the one optional parameter
// missing that says what (query, search …), when nothing required is
// missing: past its particle and a quantifier or article ("some", "a"),
// to a preposition, a filler or the end of the clause; possessives stay.
// A reference ("play this"), a pronoun or only words of the tool's own
// ("play music") is no object.
func (f *filler) whatObject() {
	target := f.soleMissingOf(func(p *property) bool { return fitsName(p, whatNames) }, false)
	if target == nil {
		return
	}
	v := f.verbIndex()
	if v >= len(f.toks) || endsClause(f.toks[v].raw) {
		return
	}
	particle, ok := whatVerbs[f.toks[v].word]
	if !ok {
		return
	}
	k := v + 1
	if particle != "" && k < len(f.toks) && f.toks[k].word == particle {
		k++
	}
	for k < len(f.toks) && f.free(k) && (f.toks[k].word == "some" || f.toks[k].word == "a" || f.toks[k].word == "an" || f.toks[k].word == "any") {
		k++
	}
	last, own := k-1, true
	for j := k; j < len(f.toks) && j-k < 8 && f.free(j); j++ {
		w := f.toks[j].word
		if prepositions[w] || objectPreps[w] || placePreps[w] || fillers[w] && !determiners[w] || subordinators[w] {
			break
		}
		if j == k && (determiners[w] && w != "the" || pronouns[w] || pronounValues[w] || vague[w] || w == "off") {
			return
		}
		own = own && (f.tool[w] || determiners[w])
		last = j
		if endsClause(f.toks[j].raw) {
			break
		}
	}
	if last < k || own {
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

// ownVerbEnd reads the tool's own verb at token v: the index of its last
// word, or -1 when the request's verb is not the tool's. The verb may be
// the tool's word written as two ("roll back" for rollback, "set up" for
// setup) and run on through the tool's words after it ("rollout restart
// billing-worker"): the object starts after them.
func (f *filler) ownVerbEnd(v int) int {
	if !f.free(v) || endsClause(f.toks[v].raw) {
		return -1
	}
	end := v
	switch {
	case f.tool[f.toks[v].word]:
	case f.free(v+1) && f.tool[f.toks[v].word+f.toks[v+1].word]:
		end = v + 1
	default:
		return -1
	}
	for f.free(end+1) && !endsClause(f.toks[end].raw) && f.tool[f.toks[end+1].word] && end+2 < len(f.toks) {
		end++
	}
	return end
}

// onlyMissingText is the one required parameter still missing when it is
// plain text (no id, date or time); nil when there is none, or when
// another required parameter is missing too.
func (f *filler) onlyMissingText() *property {
	var target *property
	for _, p := range f.s.props {
		if p.required && f.missing(p) {
			if !stringProp(p) || isIDProp(p) || p.date || isTimeProp(p) || p.dateTime || target != nil {
				return nil
			}
			target = p
		}
	}
	return target
}

// workVerbs put a work on a screen or a speaker, with the particle some
// take ("put on").
var workVerbs = map[string]string{"put": "on", "play": "", "open": "", "watch": "", "show": "", "stream": "", "start": "", "launch": "", "queue": "", "throw": "on"}

// workNames name a parameter for a work: a movie, a show, a series.
var workNames = setOf("title", "show", "movie", "film", "series", "program", "programme")

// looseWorkNames name a work's title only with a description of a work.
var looseWorkNames = setOf("title", "program")

// workKinds are the words of a description that say a parameter's title
// is a work's ("Movie, show or streaming app to open").
var workKinds = []string{"movie", "film", "show", "series", "episode", "programme", "streaming", "video", "album", "song", "podcast"}

// workTitleProp: p takes the title of a work: named movie, film, show,
// series or program, or title with a description of a work (an issue's
// title is no work).
func workTitleProp(p *property) bool {
	if !stringProp(p) || len(p.enum) > 0 || isIDProp(p) || !fitsName(p, workNames) {
		return false
	}
	if !fitsName(p, looseWorkNames) {
		return true
	}
	for _, k := range workKinds {
		if strings.Contains(p.desc, k) {
			return true
		}
	}
	return false
}

// channelNames name a parameter for what a set is tuned to.
var channelNames = setOf("channel", "station", "input", "source")

// workTitle reads a capitalised name that is the object of a verb that
// puts a work on ("put Dune on the big screen", "play The Crown", "watch
// Severance in the den") for the one parameter missing that takes a
// work's title. With a channel parameter missing too, a name with a
// number or a word in capitals ("BBC Two", "Channel 5") may be either and
// is left to be reported.
func (f *filler) workTitle() {
	target := f.soleMissingOf(workTitleProp, false)
	if target == nil {
		return
	}
	v := f.verbIndex()
	if v >= len(f.toks) || !f.free(v) || endsClause(f.toks[v].raw) {
		return
	}
	particle, ok := workVerbs[f.toks[v].word]
	if !ok {
		return
	}
	k := v + 1
	if particle != "" && f.free(k) && f.toks[k].word == particle && !endsClause(f.toks[k].raw) {
		k++
	}
	last := f.capRun(k)
	if last < 0 || f.sentenceStart(k) {
		return
	}
	channel := f.soleMissingOf(func(p *property) bool { return fitsName(p, channelNames) }, false) != nil
	for j := k; j <= last; j++ {
		w, raw := f.toks[j].word, strings.Trim(f.toks[j].raw, ".,;:!?")
		if f.tool[w] || pronouns[w] {
			return
		}
		if channel && (strings.ContainsAny(raw, "0123456789") || len(raw) > 1 && raw == strings.ToUpper(raw)) {
			return
		}
		for _, p := range f.s.props {
			if p != target && describesWord(p, w) {
				return // a value another parameter lists ("HDMI")
			}
		}
	}
	if f.try(target, f.spanValue(k, last)) {
		f.useTokens(rangeIdx(k, last)...)
	}
}
