package resolve

import (
	"slices"
	"strings"
)

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

// remainder is the intent text no rule used, past the request's frame
// (frameEnd) and before the frame's words that close it (frameTail),
// trimmed of punctuation. What the frame introduces is the value,
// verbatim: its articles, and the tool's own words within it ("count the
// words in a piece of text about words"), are the person's.
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
	start, cued := f.frameEnd(words)
	kept := f.frameTail(words[start:], cued)
	if len(kept) == 0 || f.frameOnly(kept) || f.pointsAt(kept) {
		return "" // "count the words in the text", "… of this paragraph": no text is given
	}
	span := f.text[kept[0].start:kept[len(kept)-1].end]
	if slices.Contains(hidden[kept[0].start:kept[len(kept)-1].end], true) {
		// A value another rule placed stands within: the words around it.
		parts := make([]string, len(kept))
		for i, w := range kept {
			parts[i] = w.raw
		}
		span = strings.Join(parts, " ")
	}
	return strings.TrimFunc(span, func(r rune) bool {
		return strings.ContainsRune(`.,;:!?-–—`, r)
	})
}

// frameEnd is the index in words of the value's first word, and whether a
// cue introduced it: past the request's frame, the run of words opening
// the request that say what to do rather than with what (its verb, the
// tool's own words, the common words of requests, question words,
// politeness, pronouns, articles), and past the cue that ends the frame (frameCues, a
// word ending with a colon, or "that" after the request's verb): "count
// the words in | a b", "how many words are in | this is a test", "note
// that | the plumber comes". With no cue the value starts after the
// frame's last word that no value opens with, past a lone article ("find
// a | lasagna recipe"), but not past the opening of a clause ("count
// words | this is a test").
func (f *filler) frameEnd(words []token) (int, bool) {
	last := -1      // the frame's last word that no value opens with
	strong := 0     // how many such words, "please" aside
	leading := true // only framing words so far: a verb here is the request's
	for i, w := range words {
		opening := leading && verbs[w.word] // "tell me the word count of …"
		if !opening && !f.frameWord(w.word) || f.inNested(w) {
			break
		}
		leading = leading && fillers[w.word]
		if strings.HasSuffix(w.raw, ":") || last >= 0 && (frameCues[w.word] || w.word == "that" && strong == 1 && last == i-1) {
			return i + 1, true
		}
		switch {
		case opening, !valueOpeners[w.word],
			// "what is", "can I": a copula after a question word, a
			// subject after a modal, frame the question.
			last == i-1 && last >= 0 && (copulas[w.word] && frameQuestions[words[last].word] || subjects[w.word] && modals[words[last].word]),
			// "is there": an existential question's frame.
			w.word == "there" && i > 0 && copulas[words[i-1].word]:
			last = i
			if w.word != "please" {
				strong++
			}
		}
	}
	k := last + 1
	for k < len(words) && articles[words[k].word] {
		k++
	}
	if k == last+2 && k < len(words) && !f.frameWord(words[k].word) {
		return k, false // "find a | lasagna recipe"
	}
	return last + 1, false
}

// frameTail is words less the frame's words that close the request: the
// framing words at its end ("… in" before a value another rule placed,
// "please"; after a cue only where a placed value or "please" follows
// them: "count the words in this is a test of it" keeps "of it"), a rank
// word whose count another rule took ("…, top" of "top 3"), a place the
// tool is used in, written with the tool's own words ("in the CRM", "on
// google maps"; not "in a text", a thing rather than a place), and with
// no cue before the value, the tool's own words ending it ("lasagna
// recipe" for a recipe search). An inner intent's result ending the
// words is kept whole.
func (f *filler) frameTail(words []token, cued bool) []token {
	for len(words) > 0 && words[0].word == "" {
		words = words[1:]
	}
	for n := len(words); n > 0 && !f.inNested(words[n-1]); n = len(words) {
		w := words[n-1].word
		switch {
		case w == "" || w == "please" || fillers[w] && (!cued || f.placedAfter(words[n-1].end)) || rankWords[w] && f.countAfter(words[n-1].end):
			words = words[:n-1]
		case f.tool[w]:
			k := n - 1
			for k > 0 && (f.tool[words[k-1].word] || determiners[words[k-1].word] && !indefinites[words[k-1].word]) && !endsClause(words[k-1].raw) {
				k--
			}
			switch {
			case k > 0 && toolPlaces[words[k-1].word] && !endsClause(words[k-1].raw):
				words = words[:k-1]
			case !cued:
				words = words[:n-1]
			default:
				return words
			}
		default:
			return words
		}
	}
	return words
}

// placedAfter: some word after byte end went to a parameter.
func (f *filler) placedAfter(end int) bool {
	for _, t := range f.toks {
		if t.used && t.start >= end {
			return true
		}
	}
	for i, pr := range f.pairs {
		if f.pairUsed[i] && pr.start >= end {
			return true
		}
	}
	return false
}

// frameOnly: the words are only articles and the tool's own words, which
// name the tool's thing and give no value ("the text").
func (f *filler) frameOnly(words []token) bool {
	for _, w := range words {
		if !f.tool[w.word] && !determiners[w.word] || f.inNested(w) {
			return false
		}
	}
	return true
}

// pointsAt: the words point at a text rather than write it, as
// reference reads tokens: a pronoun or article alone, or a demonstrative
// and its noun ("this paragraph"); never an inner intent's result.
func (f *filler) pointsAt(words []token) bool {
	return !f.inNested(words[0]) && referenceWords(words[0].word, len(words))
}

// inNested: w is a word of an inner intent's result, a value whole.
func (f *filler) inNested(w token) bool {
	for _, n := range f.nested {
		if w.start >= n.Start && w.start < n.End {
			return true
		}
	}
	return false
}

// frameWord: w may stand in a request's frame (frameEnd).
func (f *filler) frameWord(w string) bool {
	return w == "" || fillers[w] || f.tool[w] || frameQuestions[w] || w == "there" || infoNouns[w]
}

// frameCues introduce a value after a request's frame: "count the words
// in …", "search for …", "the length of …", "help with …", "the contacts
// at …".
var frameCues = setOf("in", "of", "for", "about", "on", "with", "at")

// infoNouns name what a request asks to be told about a thing, not the
// thing: "the contact details of | Jane Doe", "info for | Bob Smith",
// "information about | the webb telescope", "the record for |
// dana@example.com". In the frame, with the cue after them, they leave
// the value to be the thing a look-up searches for.
var infoNouns = setOf("details", "detail", "info", "information", "record", "records", "profile")

// toolPlaces introduce where the tool is used, at the end of a request:
// "… in the CRM", "… on google maps", "… with the word counter".
var toolPlaces = setOf("in", "on", "at", "with", "using", "via", "through", "from")

// frameQuestions are the question words a request's frame asks with
// ("how many words are in …").
var frameQuestions = setOf("how", "many", "much", "what", "whats", "what's", "which", "who", "where", "when")

// valueOpeners are the framing words a value may open with: articles,
// demonstratives and possessives, pronouns and words that join clauses
// ("count words this is a test").
var valueOpeners = union(determiners, setOf("it", "is", "are", "and", "or", "to", "with", "by", "at", "from", "into",
	"that", "then", "also", "just", "now", "i", "you"))

var (
	articles    = setOf("a", "an", "the", "some", "any")
	indefinites = setOf("a", "an", "some", "any")
	copulas     = setOf("is", "are")
	subjects    = setOf("i", "you")
	modals      = setOf("can", "could", "would", "do")
)

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
