package resolve

import (
	"strings"
	"unicode"
)

// Rules that read a clause as one value: what a tool's word asks done
// ("remind me to …"), what a colon introduces, what a message says, what
// a thing is called, a list. Each fills one parameter of its kind still
// missing, and does nothing when it cannot tell which (soleMissing).

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
	target := f.onlyMissingText()
	if target == nil {
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
	// The free-text parameter takes the clause only when it is all the
	// request says after the tool's word: the free-text rule would trim
	// its verb ("remind me to call mom" → "mom"), and a clause followed
	// by more words is the free-text rule's.
	if target == free {
		for j := last + 1; j < len(f.toks); j++ {
			if f.free(j) && !fillers[f.toks[j].word] {
				return
			}
		}
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
		if !f.free(j) || endsClause(f.toks[j].raw) {
			continue
		}
		// A verb that prompts someone counts with its object: "nudge me
		// to …", "ping us to …".
		if !f.tool[f.toks[j].word] && !(promptVerbs[f.toks[j].word] && f.free(j+1) && objectPronouns[f.toks[j+1].word]) {
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

// promptVerbs prompt someone to do a thing: "nudge me to call Ann".
var promptVerbs = setOf("remind", "nudge", "ping", "prompt", "alert", "notify", "poke", "bug", "tell", "warn", "ask", "get")

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

// contentNames are the names of parameters that take what a message says.
var contentNames = setOf("text", "message", "body", "content", "prompt", "query", "note", "msg")

// applyColonContent reads what a colon introduces, verbatim, to the end of
// the request ("post to #general on slack: standup moved to 10", "count
// the words: the quick brown fox"), for the one required text parameter
// missing, or the one of them named for content (body before subject). A
// colon after a parameter's name is the keyed rule's; words after the colon
// another rule took leave it to the others. A colon after a value another
// rule placed still introduces the rest ("file a bug on acme/api: the
// page does not refresh": the repository, then the title), which would
// otherwise be asked for. Verbatim: the free-text rule
// trims framing words, and "the quick brown fox" is four words.
func (f *filler) applyColonContent(free *property) {
	colon, taken := -1, -1
	for i, t := range f.toks {
		if strings.HasSuffix(t.raw, ":") && !f.inNested(t) { // an inner result's colon is its own
			if !t.used {
				colon = i
				break
			}
			if taken < 0 {
				taken = i
			}
		}
	}
	if colon < 0 {
		// "dm Dario on signal: …", "file a bug on acme/api: …": the
		// word before the colon went to another parameter (the app, the
		// repository); what follows is still the message, or the text.
		colon = taken
	}
	if colon < 0 || colon+1 >= len(f.toks) || !f.freeText(colon+1) {
		return
	}
	last := colon + 1
	for last+1 < len(f.toks) && f.freeText(last+1) {
		last++
	}
	if !f.placedTail(last + 1) {
		return
	}
	last = f.leadInBefore(colon+1, last)
	if f.messageColon(colon) {
		return
	}
	text := func(p *property) bool { return !isIDProp(p) && !p.date && !isTimeProp(p) && !p.dateTime }
	target := f.soleMissing(text)
	if target == nil {
		target = f.soleMissing(func(p *property) bool { return text(p) && (fitsName(p, contentNames) || p == free) })
	}
	if target == nil {
		// "request changes on #77: please add tests": what a colon
		// introduces is the content, optional or not (a review's body).
		target = f.soleMissingOf(func(p *property) bool { return text(p) && fitsName(p, contentNames) }, false)
	}
	if target == nil {
		return
	}
	v := strings.TrimSpace(f.text[f.toks[colon+1].start:f.toks[last].end])
	v = strings.TrimRight(v, ".!],")
	if f.shortValueParam(target, free) && clauseValue(v) {
		// "let her in: open the side door": a request, not which door.
		return
	}
	if v != "" && f.try(target, v) {
		f.useTokens(rangeIdx(colon+1, last)...)
	}
}

// sendVerbs send a message to whom their object names: the message
// verbs, and the verbs a chat app is asked to post with.
var sendVerbs = setOf("text", "message", "tell", "sms", "msg", "ping", "whatsapp", "dm", "post", "write", "send", "reply", "signal", "telegram")

// verbParticles finish a verb, never name who gets a message ("write
// down: …", "send out: …").
var verbParticles = setOf("down", "up", "out", "back", "over", "off", "this", "these", "following")

// messageColon reads "<message verb> <recipient>: <message>" ("DM the
// climbing club: rain check", "Telegram to Ola: on my way"): what the
// colon introduces is the message, for the one message parameter missing
// (text, body …), not the required recipient; the one to four words
// between the verb and the colon, when free and no pronoun, verb or
// particle, are who gets it, for the one other required text parameter
// missing (a pronoun or a word another rule took leaves it to the later
// rules); a verb or a particle there ("write down: …") says the colon
// follows no recipient, and it reads nothing. It reports whether it read
// the message.
func (f *filler) messageColon(colon int) bool {
	v := f.verbIndex()
	if v >= colon || !sendVerbs[f.toks[v].word] {
		return false
	}
	msg := f.soleMissingOf(func(p *property) bool { return fitsName(p, messageNames) }, false)
	if msg == nil {
		return false
	}
	last := len(f.toks) - 1
	body := strings.TrimRight(strings.TrimSpace(f.text[f.toks[colon+1].start:f.toks[last].end]), ".!]")
	if body == "" {
		return false
	}
	a := v + 1
	if a <= colon && f.toks[a].word == "to" {
		a++
	}
	// Who gets it: the one other required text parameter missing (the
	// chat), else none; when there is one, the words before the colon
	// must name it, or the colon is read as before ("write down: …").
	who := f.soleMissing(func(p *property) bool {
		return p != msg && !isIDProp(p) && !p.date && !isTimeProp(p) && !p.dateTime
	})
	if who != nil {
		end := f.beforeOwnApp(a, colon)
		ok := a <= colon && end-a < 4
		for k := a; k <= colon; k++ {
			w := f.toks[k].word
			if verbs[w] || verbParticles[w] {
				return false // "write down: …" names no one
			}
			// A pronoun ("tell them: …") or a word another rule took
			// ("dm Dario on signal: …") leaves who to the later rules.
			ok = ok && f.free(k) && !subjectPronouns[w] && !pronounValues[w]
		}
		if ok {
			if name := f.spanValue(a, end); name != "" && f.try(who, name) {
				f.useTokens(rangeIdx(a, colon)...)
			}
		}
	}
	if !f.try(msg, body) {
		return false
	}
	f.useTokens(rangeIdx(colon+1, last)...)
	return true
}

// appPreps say which app a message goes through: "on slack", "via signal".
var appPreps = setOf("on", "via", "over", "through", "using", "in")

// beforeOwnApp is the last token of who gets a message, written from
// token a to last: before "on slack" or "via the slack app" when those
// words are the tool's own (the app it posts with, which no parameter
// takes), else last.
func (f *filler) beforeOwnApp(a, last int) int {
	for k := a + 1; k < last; k++ {
		if !appPreps[f.toks[k].word] {
			continue
		}
		own := true
		for j := k + 1; j <= last && own; j++ {
			w := f.toks[j].word
			own = f.tool[w] || determiners[w] || w == "app"
		}
		if own {
			return k - 1
		}
	}
	return last
}

// titleNames are the names of parameters that take what a thing is called.
var titleNames = setOf("title", "subject", "summary", "heading", "caption")

// namingNames are the words of parameters that take what the tool's own
// thing is called: a timer's label, a playlist's name.
var namingNames = setOf("label", "name", "title", "tag", "nickname", "caption", "heading")

// namingParam: p takes what the thing the tool makes or acts on is called,
// by its name (label, name, title … alone, or after a word of the tool's:
// timer_name) or by its description's first words ("Name of the timer",
// "Alarm label"). A name that is a pattern to match (a file finder's
// name) is not one: "files called invoices" asks which files.
func (f *filler) namingParam(p *property) bool {
	if !stringProp(p) || globParam(p) || p.hasDefault {
		return false
	}
	if n := len(p.words); n > 0 && namingNames[p.words[n-1]] {
		own := true
		for _, w := range p.words[:n-1] {
			own = own && f.tool[w]
		}
		if own {
			return true
		}
	}
	return f.describesNaming(p)
}

// describesNaming: the first four words of p's description are a naming
// word and the tool's own thing ("Name of the timer", "Alarm label"),
// not a name of something else ("The name of the city").
func (f *filler) describesNaming(p *property) bool {
	words := strings.FieldsFunc(p.desc, func(r rune) bool { return !unicode.IsLetter(r) })
	naming, own := false, false
	for _, w := range words[:min(4, len(words))] {
		switch {
		case namingNames[w]:
			naming = true
		case f.tool[w]:
			own = true
		case !fillers[w] && !determiners[w]:
			return false
		}
	}
	return naming && own
}

// applyTitled reads what a thing is called, after called, titled, named or
// labelled, to the end of the clause ("open an issue called Login fails on
// Safari, label it bug" → title "Login fails on Safari"), for the one
// required title parameter missing, or else the one parameter missing that
// takes what the tool's thing is called (namingParam: a timer's label,
// optional though it is). A title is a phrase, where the names rule reads
// only its capitalised words. It stops at a word another rule used ("an
// event called Team sync tomorrow at 10am") and reads at most ten words; a
// quoted title is the quote rules'. Without such a cue, "for the X" names
// the thing when a naming parameter is missing ("a 20 minute timer for the
// laundry": forThe).
func (f *filler) applyTitled() {
	target := f.soleMissing(func(p *property) bool { return fitsName(p, titleNames) })
	if target == nil {
		target = f.soleMissingOf(f.namingParam, false)
	}
	if target == nil {
		return
	}
	for i := 0; i+1 < len(f.toks); i++ {
		if !f.free(i) || !titleCues[f.toks[i].word] || endsClause(f.toks[i].raw) || !f.free(i+1) {
			continue
		}
		first, last := i+1, i
		slug := slugName(f.toks[first].value) // "a bucket named acme-logs-prod in eu-central-1"
		for j := first; j < len(f.toks) && j-first < 10 && f.free(j) && (!slug || j == first); j++ {
			if w := f.toks[j].word; j > first && (prepositions[w] || shortPreps[w]) && f.toolWordWithin(j+1, 3) {
				break // "called Kickoff in my calendar": where it goes, not what it is
			}
			if w := f.toks[j].word; j > first && (w == "with" || w == "and") && f.free(j+1) && f.namesOther(target, f.toks[j+1].word) {
				break // "titled Login broken with label bug": the label is another argument
			}
			last = j
			if endsClause(f.toks[j].raw) {
				break
			}
		}
		last = f.leadInBefore(first, last)
		// Trailing framing words are trimmed ("called Sync please"), but
		// the word right after the cue is the name, however common ("a
		// timer called run"), unless it is a preposition or determiner
		// ("called for").
		for last >= first && (fillers[f.toks[last].word] || prepositions[f.toks[last].word] || determiners[f.toks[last].word]) {
			if w := f.toks[last].word; last == first && !prepositions[w] && !determiners[w] && !shortPreps[w] {
				break
			}
			last--
		}
		if last >= first && f.try(target, f.spanValue(first, last)) {
			f.useTokens(rangeIdx(i, last)...)
		}
		return
	}
	if f.namingParam(target) {
		f.forThe(target)
	}
}

// slugName: s is a name written as one word of lower-case letters,
// digits and marks (acme-logs-prod, team-artifacts.dev, build_42), as
// machines name things: the whole name, and the words after it are
// something else ("named acme-logs-prod in eu-central-1"). Words in
// prose ("called Login fails on Safari", "named after …") run on.
func slugName(s string) bool {
	if s != strings.ToLower(s) || !strings.ContainsAny(s, "-._0123456789") || strings.HasSuffix(s, ".") {
		return false
	}
	return strings.IndexFunc(s, unicode.IsLetter) >= 0 && !strings.ContainsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("-._", r)
	})
}

// forThe reads what a thing is for as its name, "for the X" ("set a 20
// minute timer for the laundry" → label "laundry", "for my nap"): one to
// three plain words that end the clause or meet a framing word. Only for
// a naming parameter (namingParam), which says the thing has a name; and
// never a length, number or time ("for the next 10 minutes", "for 2
// people", "for the weekend"): the words must be content words (no digits)
// and no word of a time.
func (f *filler) forThe(target *property) {
	for i := 0; i+2 < len(f.toks); i++ {
		if !f.free(i) || f.toks[i].word != "for" || endsClause(f.toks[i].raw) || !f.free(i+1) || !forDeterminers[f.toks[i+1].word] {
			continue
		}
		first, last := i+2, i+1
		for j := first; j < len(f.toks) && j-first < 3 && f.contentWord(j) && !timeWord(f.toks[j].word); j++ {
			last = j
			if endsClause(f.toks[j].raw) {
				break
			}
		}
		if last < first {
			continue
		}
		if next := last + 1; !endsClause(f.toks[last].raw) && next < len(f.toks) && f.toks[next].word != "" &&
			!f.toks[next].used && (!fillers[f.toks[next].word] || f.toks[next].word == "of") && !prepositions[f.toks[next].word] && !discourse[f.toks[next].word] {
			continue // "for the pasta sauce recipe …", "for the big pot of rice": more than a name
		}
		if f.try(target, f.spanValue(first, last)) {
			f.useTokens(rangeIdx(i, last)...)
		}
		return
	}
}

// forDeterminers open what a thing is for: "for the laundry", "for my nap".
var forDeterminers = setOf("the", "my", "our")

// timeWord: a word of a day, a part of it or a length of time ("the
// weekend", "the morning", "the next hour"), which says when, not what for.
func timeWord(w string) bool {
	_, unit := durationUnits[w]
	return unit || dayWord(w) || relativePeriods[strings.TrimSuffix(w, "s")]
}

// dayWord: w names a day or a part of one ("friday", "mondays",
// "tomorrow", "evening").
func dayWord(w string) bool {
	_, day := weekdays[strings.TrimSuffix(w, "s")]
	return day || relativeDays[w] || dayParts[w]
}

// dayParts are the parts of a day a request names.
var dayParts = setOf("morning", "afternoon", "evening", "night", "noon", "midnight", "midday", "tomorrow", "weekdays", "weekends", "rest")

// shortPreps are the prepositions the framing words hold (fillers).
var shortPreps = setOf("in", "on", "at", "to", "into", "for", "with", "from", "by", "about", "of")

// titleCues introduce what a thing is called.
var titleCues = setOf("called", "titled", "entitled", "named", "labelled", "labeled")

// toolWordWithin: one of the n tokens from i is a word of the tool's own.
func (f *filler) toolWordWithin(i, n int) bool {
	for k := i; k < len(f.toks) && k < i+n; k++ {
		if f.tool[f.toks[k].word] {
			return true
		}
	}
	return false
}

// sayCues introduce what a message says: "… and say see you at noon",
// "post saying deploy done", "email the team that the meeting moved".
var sayCues = setOf("say", "saying", "says", "that")

// messageNames are the names of parameters that take what a message says
// (not a search's query: "find files that changed" asks no message).
var messageNames = setOf("text", "message", "body", "content", "note", "msg")

// applySaid reads what a message says, after say, saying or that, verbatim
// to the end of the request, for the one message parameter missing (body,
// message, text …; "that" only for a required one). "that" counts only after the tool's
// word has its object ("email the team that …"): right after the verb it
// points back ("translate that sentence"). Every word to the end must be
// free: a value another rule took inside it says the clause is not all
// message; one after a comma ends it ("saying see you, subject Hi": the
// subject is a field of its own).
func (f *filler) applySaid() {
	target := f.soleMissingOf(func(p *property) bool { return fitsName(p, messageNames) }, false)
	if target == nil {
		return
	}
	for i := 1; i+1 < len(f.toks); i++ {
		w := f.toks[i].word
		// "text Ann I'm running late": the message is the subject's
		// clause, pronoun and all; else it follows its cue.
		first, cue := i+1, i
		if f.free(i) && f.messageOpens(i) {
			first = i
		} else if !f.free(i) || !sayCues[w] || w == "that" && (f.tool[f.toks[i-1].word] || !target.required && !f.sentThat(i)) {
			continue
		}
		last, trim := len(f.toks)-1, ".!]"
		for j := first; j < len(f.toks); j++ {
			if f.freeText(j) {
				continue
			}
			if j == first || !endsClause(f.toks[j-1].raw) {
				return
			}
			// "saying see you, subject Hi": the clause after the
			// message is another field, which a rule took.
			last, trim = j-1, ".!],;:"
			break
		}
		v := strings.TrimRight(strings.TrimSpace(f.text[f.toks[first].start:f.toks[last].end]), trim)
		if politeAsks[f.toks[0].word] {
			// "could you tell Bo that I'm here?": the question mark is the request's.
			v = strings.TrimRight(v, "?")
		}
		if v != "" && f.try(target, v) {
			f.useTokens(rangeIdx(min(cue, first), last)...)
		}
		return
	}
}

// politeAsks open a request put as a question ("could you …?").
var politeAsks = setOf("could", "can", "would", "will")

// sentThat: the "that" at token i opens what an optional message
// parameter says: the request's verb sends a message ("post in the team
// chat that I've landed", "text Bo that we're late"), a word stands
// between it and "that", and a subject pronoun follows it, so the "that"
// is no demonstrative ("send Bo that photo").
func (f *filler) sentThat(i int) bool {
	v := f.verbIndex()
	return v < len(f.toks) && sendVerbs[f.toks[v].word] && v+1 < i && i+1 < len(f.toks) &&
		subjectPronouns[f.toks[i+1].word]
}

// soleMissing is the one required string parameter still missing that
// fits: nil when none does or several do.
func (f *filler) soleMissing(fits func(*property) bool) *property {
	return f.soleMissingOf(fits, true)
}

// soleMissingOf is soleMissing over the optional parameters too when
// required is false.
func (f *filler) soleMissingOf(fits func(*property) bool, required bool) *property {
	return f.soleMissingWhere(func(p *property) bool {
		return (p.required || !required) && stringProp(p) && len(p.enum) == 0 && fits(p)
	})
}

// soleMissingWhere is the one missing parameter, of any type, that fits;
// nil when none or two do (which one is meant is then not said).
func (f *filler) soleMissingWhere(fits func(*property) bool) *property {
	var target *property
	for _, p := range f.s.props {
		if fits(p) && f.missing(p) {
			if target != nil {
				return nil
			}
			target = p
		}
	}
	return target
}

// listStops end a list: the preposition that says where it goes ("add
// eggs, milk and bread to the list").
var listStops = setOf("to", "from", "into", "onto", "on", "in", "for", "with", "at", "by")

// applyLists reads a list written as such, two or more short items parted
// by commas, "and" or "or" ("add eggs, milk and bread to the shopping
// list"), for the one array-of-strings parameter still missing. An item is
// one to four words; the list ends at a preposition, a word of the tool's
// own or the end of the clause.
func (f *filler) applyLists() {
	target := f.soleMissingWhere(func(p *property) bool {
		return stringList(p) // stringProp: no enum
	})
	if target == nil {
		return
	}
	defer func() {
		if f.missing(target) {
			f.oneItem(target)
		}
	}()
	if f.namedList(target) {
		return
	}
	for i := 0; i < len(f.toks); i++ {
		if !f.free(i) || fillers[f.toks[i].word] || determiners[f.toks[i].word] || verbs[f.toks[i].word] || f.tool[f.toks[i].word] ||
			i == 0 && !strings.HasSuffix(f.toks[i].raw, ",") || // the request's verb: "put …"
			f.namesList(target, i) {
			continue
		}
		items, last := f.listAt(i)
		if len(items) < 2 {
			continue
		}
		if f.clauseList(i, last, items) {
			i = last // nor any tail of it ("… and hungry, get me …")
			continue
		}
		if f.free(i-1) && f.namesList(target, i-1) {
			f.useTokens(i - 1)
		}
		f.store(target, items)
		f.useTokens(rangeIdx(i, last)...)
		return
	}
}

// namedList reads the list right after the list parameter's own noun
// first ("titled Patch CVE, reviewers alice and bob" → alice, bob): the
// noun says where the list starts, and the words before it, read as items
// from the first free word, are another value's. It reports whether it
// stored the list.
func (f *filler) namedList(target *property) bool {
	for i := 0; i+1 < len(f.toks); i++ {
		if !f.free(i) || !f.namesList(target, i) {
			continue
		}
		items, last := f.listAt(i + 1)
		if len(items) < 2 && !(len(items) == 1 && f.loneItem(i, last)) || f.clauseList(i+1, last, items) {
			continue
		}
		f.store(target, items)
		f.useTokens(rangeIdx(i, last)...)
		return true
	}
	return false
}

// loneItem: the list's noun at token noun, a content word (not the "by"
// of group_by), is followed by one item of one or two words that ends its
// clause or meets a word of the frame ("with label bug", "tag urgent and
// assign it"): a list of one.
func (f *filler) loneItem(noun, last int) bool {
	a := noun + 1
	if w := f.toks[noun].word; last < a || last-a > 1 || fillers[w] || prepositions[w] || shortPreps[w] {
		return false
	}
	return last+1 >= len(f.toks) || endsClause(f.toks[last].raw) || fillers[f.toks[last+1].word] || listStops[f.toks[last+1].word]
}

// namesList: token i is the list parameter's own noun right before its
// items ("with labels bug and urgent", "tags: a, b"), which says what the
// items are and is none of them.
func (f *filler) namesList(target *property, i int) bool {
	if endsClause(f.toks[i].raw) || !f.free(i+1) {
		return false
	}
	for _, w := range target.words {
		if sameNoun(f.toks[i].word, w) {
			return true
		}
	}
	return false
}

// itemVerbs put a thing on a list or take it off.
var itemVerbs = setOf("add", "remove", "put", "buy", "delete", "drop", "cross")

// itemNames name an array parameter of the things a list holds.
var itemNames = setOf("items", "item", "products", "groceries", "things", "entries")

// notItems are objects that stand for no item of their own.
var notItems = setOf("everything", "all", "nothing", "stuff", "item", "items", "things", "thing", "list", "one", "more", "off")

// oneItem reads a single noun phrase, the object of the request's verb
// when it adds, removes, puts or buys ("add rye bread to the list",
// "remove the kale"), as a one-item list for a parameter of items (items,
// products …; not attendees): one to four words, past a
// determiner, that end the request or stop at the preposition that says
// where they go; no verb, pronoun or word of the tool's own among them.
func (f *filler) oneItem(target *property) {
	v := f.verbIndex()
	if v+1 >= len(f.toks) || !itemVerbs[f.toks[v].word] || !fitsName(target, itemNames) {
		return
	}
	items, last := f.listAt(v + 1)
	if len(items) != 1 || last < v+1 || last+1 < len(f.toks) && (!f.free(last+1) || !listStops[f.toks[last+1].word]) && !endsClause(f.toks[last].raw) {
		return
	}
	item, _ := items[0].(string)
	for _, w := range strings.Fields(strings.ToLower(item)) {
		w = strings.Trim(w, `"'“”‘’.,!?;:`)
		if w == "" || verbs[w] || pronounValues[w] || subjectPronouns[w] || notItems[w] || fillers[w] || f.tool[w] {
			return
		}
	}
	if item == "" || f.clauseList(v+1, last, items) {
		return
	}
	f.store(target, items)
	f.useTokens(rangeIdx(v+1, last)...)
}

// listAt reads the list starting at token i: its items, and its last
// token. A cue of exclusion or inclusion ends it: what follows is left out
// or taken in, no item of this list (rule scoped_lists).
func (f *filler) listAt(i int) (items []any, last int) {
	first := -1
	closeItem := func(end int) bool {
		if first < 0 {
			return true
		}
		if end-first >= 4 {
			return false
		}
		items = append(items, f.spanValue(first, end))
		first = -1
		return true
	}
	last = i - 1
	for j := i; j < len(f.toks) && f.free(j); j++ {
		t := f.toks[j]
		switch {
		case t.word == "and" || t.word == "or":
			if !closeItem(last) {
				return nil, 0
			}
			last = j
			continue
		case listStops[t.word] || f.tool[t.word] || f.scopeCue(j):
			if !closeItem(last) {
				return nil, 0
			}
			return items, last
		}
		if first < 0 {
			if determiners[t.word] {
				continue
			}
			first = j
		}
		last = j
		if j-first >= 4 {
			return nil, 0 // an item this long closes as no item: stop reading now, not at the clause's end
		}
		if strings.HasSuffix(t.raw, ",") {
			if !closeItem(j) {
				return nil, 0
			}
		} else if endsClause(t.raw) {
			break
		}
	}
	if !closeItem(last) {
		return nil, 0
	}
	return items, last
}
