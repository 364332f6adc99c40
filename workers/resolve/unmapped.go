package resolve

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/toolyard/toolyard/schemas"
)

// A value the intent states is never dropped without a word: after the
// rules ran, the words of the intent that name a value — a quoted string,
// a key=value pair for no parameter, a number (with its unit: "24h"), a
// path, URL, e-mail address or glob, a code as machines name things
// ("web-3", "us-east-1": lower-case words joined by hyphens, dots or
// underscores, with a digit), a capitalised name that does not
// open the sentence, the word after "named" or "called", a word that
// narrows what the tool finds when a parameter would take it ("the json
// files"), an order asked for ("sorted by size"), a time filter
// ("modified today"), another offered tool's
// one-word name ("kernel version and uptime"), a plain content word left
// over ("a 10 minute timer, eggs": leftoverRun) — and that no rule used
// are unmapped. Each is reported with the parameter that would take it (one
// the intent left unset, of a type the value fits), or none when the tool
// has no such parameter. Ordinary words are not values: "show me the disk
// usage of /tmp" has nothing unmapped once /tmp is the path.

// commandOption is a command-line option as a shell command writes it:
// "-l", "-la", "-n5", "--check", "--dry-run" (a number alone, "-5", is a
// number).
var commandOption = regexp.MustCompile(`^--?[A-Za-z][A-Za-z0-9-]*$`)

// nameCues introduce a name in prose: "the file called notes".
var nameCues = setOf("named", "called", "titled", "matching")

// notNames are capitalised words that name no value.
var notNames = setOf("i", "ok", "okay", "please", "thanks", "hi", "hello", "hey")

// unmapped lists the values the intent states that no argument took.
func (f *filler) unmapped() []schemas.Unmapped {
	out := append([]schemas.Unmapped(nil), f.moments...)
	seen := map[string]bool{}
	// report adds u as it is, once for its text: its parameter or tool
	// is already known.
	report := func(u schemas.Unmapped) {
		if !seen[u.Text] {
			seen[u.Text] = true
			out = append(out, u)
		}
	}
	add := func(text string, kind valueKind) {
		text = strings.TrimSpace(text)
		if text == "" || seen[text] {
			return
		}
		seen[text] = true
		u := schemas.Unmapped{Text: text, Parameter: f.takerOf(text, kind)}
		if u.Parameter == "" && kind == valueShape {
			// A second path for a tool that takes one: the call runs
			// with the first, and the agent is told to ask again.
			if p := f.heldBy(text); p != "" {
				u.Parameter, u.Tool = p, f.toolID
			}
		}
		if q := f.s.prop(u.Parameter); kind == valueName && (q == nil || !q.place) {
			// A second place for the one place or time zone parameter
			// ("what time is it in Berlin and in Tokyo"): the same, and
			// never another parameter that would take any text.
			if p := f.heldPlace(text); p != "" {
				u.Parameter, u.Tool = p, f.toolID
			}
		}
		out = append(out, u)
	}
	for i, pr := range f.pairs {
		switch {
		case f.pairUsed[i]:
		case pr.key == "":
			add(pr.value, valueText)
		case !pr.quoted:
			// A key that names no parameter: its words stay tokens and
			// are read below only if they look like values.
		default:
			add(pr.value, valueText)
		}
	}
	for i := 0; i < len(f.toks); i++ {
		t := f.toks[i]
		if t.strayDate {
			// "ls /srv from 2024-01-02": a date the tool has no
			// parameter for, which only a time parameter would take.
			last := i
			for last+1 < len(f.toks) && f.toks[last+1].strayDate {
				last++
			}
			add(f.spanValue(i, last), valueWhen)
			i = last
			continue
		}
		if !f.free(i) {
			continue
		}
		if first := f.sortStart(i); first >= 0 {
			// "sorted by size": an order the tool is asked for, which
			// only a sort parameter takes, unless the tool says it
			// keeps that order itself.
			if v := f.spanValue(first, i); !strings.Contains(f.s.own, strings.ToLower(v)) {
				add(v, valueSort)
			}
			continue
		}
		if f.tool[t.word] {
			continue
		}
		if other := f.others[t.word]; other != "" {
			// Another tool's name: a second request ("kernel version and
			// uptime"), which no parameter of this tool takes.
			report(schemas.Unmapped{Text: t.value, Tool: other})
			continue
		}
		v := t.value
		if f.toolName(v) {
			continue // the tool's own id or name, written to pick it
		}
		if p := f.fractionOf(i); p != nil {
			// "refund half of order 77": a share of an amount the
			// request does not write, which the number parameter would
			// take once worked out; never run as the whole.
			report(schemas.Unmapped{Text: v, Parameter: p.name})
			continue
		}
		if p := f.enumMisfit(i); p != nil {
			// "with sha3": meant for the enum parameter, which takes
			// none such; reported for it rather than run with its
			// default (misfits.go).
			report(schemas.Unmapped{Text: v, Parameter: p.name})
			continue
		}
		if last := f.recurrenceEnd(i); last > i {
			// "every day", "each Friday": a repetition no parameter took
			// (cron and repeat_days read it for the tools that take one).
			// The call runs once; the result says what it left out,
			// reported with no taker as a plain word is: a date
			// parameter would take one day of it, not the repetition.
			add(f.spanValue(i, last), valueWord)
			i = last
			continue
		}
		if last := f.whenAt(i); last > i {
			// "modified today": a time the things found must fit, which
			// only a time parameter takes.
			add(f.spanValue(i, last), valueWhen)
			i = last
			continue
		}
		if houseNumber(t.word) && f.free(i+1) {
			if last := f.nameRun(i + 1); last >= 0 && f.withHouseNumber(i+1, last) == i {
				// "from 9 Oak Lane": one address, said whole.
				add(f.spanValue(i, last), valueName)
				i = last
				continue
			}
		}
		switch {
		case strings.Contains(t.raw, "=") && !strings.HasPrefix(t.raw, "="):
			add(v, valueText)
		case commandOption.MatchString(v) && !strings.Contains(f.s.own, strings.ToLower(v)):
			// "sha256sum --check", "wc -l -n5": an option of a command
			// changes what runs, and only a tool that says it (its own
			// text writes "(wc -l)") does it; no parameter is guessed.
			add(v, valueWord)
		case isNumber(v):
			if p := f.numberMisfit(i); p != nil && !seen[v] {
				// "the first 2.5 lines": for lines, which takes whole
				// numbers only (misfits.go).
				report(schemas.Unmapped{Text: v, Parameter: p.name})
				continue
			}
			add(v, valueNumber)
		case measure(v):
			add(v, valueMeasure)
		case anyShape(v):
			add(v, valueShape)
		case f.afterNameCue(i):
			add(v, valueText)
		case acronym(t.raw) && i > 0 && placePreps[f.toks[i-1].word] && f.missingZone():
			// "the time in CST": an abbreviation that names several
			// zones (US Central or China), which the agent is asked to
			// name; other acronyms are kinds of things, not values.
			add(v, valueName)
		case strings.ContainsAny(t.word, "0123456789") && scopeCode.MatchString(t.word):
			// "in us-east-1", "host web-3": a code as machines name things.
			add(v, valueText)
		case f.qualifier(i):
			// Which of the things the tool finds: reported when a filter
			// parameter left unset would take it (patterns.go); other
			// qualifiers are phrasing ("the running processes", "the
			// recent issues" for a tool with labels).
			if p := f.s.prop(f.takerOf(v, valueText)); p != nil && filterParam(p) {
				add(v, valueText)
			}
		default:
			if last := f.nameRun(i); last >= 0 {
				add(f.spanValue(i, last), valueName)
				i = last
			} else if last := f.leftoverRun(i); last >= 0 {
				add(f.spanValue(i, last), valueWord)
				i = last
			}
		}
	}
	return out
}

// leftoverRun is the last token of a run of plain content words left over
// at token i ("pasta" of "a timer for 10 minutes, pasta"), or -1: words no
// rule placed that are not the request's framing — no common word of
// requests, no word of the request's verb or of the tool's own name,
// description or examples (which are how the request picked it), no name
// of a parameter (a cue, not a value) and no framing word of speech
// (leftoverFraming). Without this, a plain word a rule did not read was
// dropped silently: only values with the look of one were reported.
func (f *filler) leftoverRun(i int) int {
	if !f.leftoverWord(i) {
		return -1
	}
	last := i
	for !endsClause(f.toks[last].raw) && f.leftoverWord(last+1) && f.nextStart(f.toks[last].end) == f.toks[last+1].start {
		last++
	}
	if i > 0 {
		switch prev := f.toks[i-1]; {
		case deictic[prev.word]:
			return -1 // "this kernel": the thing at hand
		case unitOf(prev.word):
			return -1 // "2 levels deep": what a number counts, which goes with it
		case verbOpeners[prev.word]:
			return -1 // "how to say", "who specializes", "will take place": a verb
		case !endsClause(prev.raw) && !commonWord(prev.word) && (f.tool[prev.word] || f.ownWord(prev.word)):
			return -1 // "the humidity level": the tool's own thing, named in full
		}
	}
	if n := last + 1; n < len(f.toks) && !endsClause(f.toks[last].raw) && !commonWord(f.toks[n].word) && (f.tool[f.toks[n].word] || f.ownWord(f.toks[n].word)) && f.besideValue(n, n) {
		return -1 // "my home directory ~/projects": which one the value placed is
	}
	if f.free(last+1) && f.nameRun(last+1) >= 0 {
		return -1 // "the host Hermes": the kind of the name that follows, reported itself
	}
	if f.besideValue(i, last) {
		return -1 // "the song 'Imagine'", "the 'income' dataset": the kind of a value placed
	}
	return last
}

// besideValue: the words [i, last] are written right before or after a
// value a rule placed (a used token or pair), with only punctuation or
// "of" between: they say what kind of value it is ("the word 'to'", "IP
// address 10.0.0.7", "the field of education").
func (f *filler) besideValue(i, last int) bool {
	after := f.nextStart(f.toks[last].end)
	if last+1 < len(f.toks) && f.toks[last+1].start == after && f.toks[last+1].word == "of" && !endsClause(f.toks[last].raw) {
		after = f.nextStart(f.toks[last+1].end)
	}
	before := f.toks[i].start
	for before > 0 && (f.text[before-1] == ' ' || strings.ContainsRune(`"'“”‘’:`, rune(f.text[before-1]))) {
		before--
	}
	for after < len(f.text) && strings.ContainsRune(`"'“”‘’:`, rune(f.text[after])) {
		after = f.nextStart(after + 1)
	}
	for k, t := range f.toks {
		if k >= i && k <= last || !t.used {
			continue
		}
		if t.start == after || t.end == before {
			return true
		}
	}
	for k, pr := range f.pairs {
		if !f.pairUsed[k] {
			continue
		}
		if pr.start <= after && after < pr.end || pr.end == before || pr.start < before && before <= pr.end {
			return true
		}
	}
	return false
}

// verbOpeners are the words a verb comes after: "to", a modal, a relative
// pronoun.
var verbOpeners = setOf("to", "will", "would", "can", "could", "should", "shall", "may", "might", "must", "who", "which", "that", "how")

// deictic words point at the thing at hand ("this machine"), not at a
// value.
var deictic = setOf("this", "these", "that", "those")

// unitOf: w is a number (or holds digits: "12-15"), whose unit the next
// word is.
func unitOf(w string) bool {
	_, word := numberWord(w)
	return word || strings.ContainsFunc(w, unicode.IsDigit)
}

// leftoverWord: token i is a plain content word that frames nothing
// (leftoverRun).
func (f *filler) leftoverWord(i int) bool {
	if !f.contentWord(i) || i == f.verbIndex() || f.sentenceStart(i) && verbs[f.toks[i].word] {
		return false
	}
	w, raw := f.toks[i].word, trimPunct(f.toks[i].raw)
	if raw == "" || !unicode.IsLower([]rune(raw)[0]) || modifierWord(w) {
		return false // a capitalised name is nameRun's; a modifier is no value alone
	}
	if leftoverFraming[w] || quantifiers[w] || cueWords[w] || nameCues[w] || titleCues[w] || whenCues[w] || sortCues[w] || objectPronouns[w] || len(w) < 2 {
		return false
	}
	for _, p := range f.s.props {
		if f.isNameWord(p, w) {
			return false
		}
	}
	return !f.ownWord(w)
}

// ownWord: w is a word the tool writes of itself, in its description or
// examples, singular or plural.
func (f *filler) ownWord(w string) bool {
	own := f.s.ownWords
	if own[w] || own[w+"s"] || own[w+"es"] {
		return true
	}
	if s, ok := strings.CutSuffix(w, "s"); ok && len(s) > 2 && (own[s] || strings.HasSuffix(s, "e") && own[strings.TrimSuffix(s, "e")]) {
		return true
	}
	return false
}

// ownWords are the words of what a tool says of itself (toolSchema.own).
func ownWords(own string) map[string]bool {
	words := map[string]bool{}
	for _, o := range strings.FieldsFunc(own, func(r rune) bool { return !unicode.IsLetter(r) }) {
		words[o] = true
	}
	return words
}

// modifierWord: w reads as a participle ("started", "using"), an adverb or an adjective of
// size or degree ("started", "quickly", "largest", "big"): it says how of
// something, and is no value on its own.
func modifierWord(w string) bool {
	if len(w) > 4 && (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "ly") || strings.HasSuffix(w, "est")) {
		return true
	}
	return degreeWords[w]
}

// degreeWords are the adjectives of size and degree requests ask with ("how
// big", "bigger than").
var degreeWords = setOf("big", "bigger", "small", "smaller", "large", "larger", "long", "longer", "short", "shorter",
	"high", "higher", "low", "lower", "old", "older", "new", "newer", "good", "better", "bad", "worse", "full", "deep",
	"fast", "faster", "slow", "slower", "many", "much", "more", "less", "fewer", "least", "best", "worst", "recent")

// leftoverFraming are the words of speech that frame a request without
// naming a value, beyond the common words of requests: particles ("wake
// me up"), questions, auxiliaries, politeness, adverbs of manner and time.
var leftoverFraming = setOf(
	"up", "down", "off", "out", "away", "back", "again", "here", "there", "right", "how", "where", "why", "whether",
	"will", "should", "shall", "may", "might", "must", "be", "been", "being", "was", "were", "am", "has", "have", "had",
	"does", "did", "done", "going", "go", "like", "know", "see", "ask", "sure", "thing", "things", "way", "not", "no",
	"yes", "ok", "okay", "thank", "thanks", "hey", "hi", "hello", "kindly", "quickly", "soon", "too", "very", "really",
	"only", "still", "already", "maybe", "perhaps", "possible", "whatever", "else", "currently", "information", "info",
	"details", "detail", "ones", "instead", "actually", "quick", "real", "able", "happen", "happens", "mind", "wondering",
	// the computer a request runs on, as it calls it: "how long has the
	// machine been up".
	"machine", "computer", "system", "box", "device", "pc", "laptop",
	// set phrases: "in relation to", "in terms of", "with respect to".
	"relation", "terms", "respect", "regard", "data",
)

// afterNameCue: token i is the word right after "named", "called" …,
// with nothing used or hidden between them, and can be a name.
func (f *filler) afterNameCue(i int) bool {
	if i == 0 || !nameCues[f.toks[i-1].word] || f.nextStart(f.toks[i-1].end) != f.toks[i].start {
		return false
	}
	w := f.toks[i].word
	return !fillers[w] && !determiners[w] && !prepositions[w] && !pronouns[w]
}

// nameRun is the capitalised name starting at token i, as capRun reads it
// but never a sentence's first word, a tool word or a word that names
// nothing; -1 when none starts there.
func (f *filler) nameRun(i int) int {
	t := f.toks[i]
	if f.sentenceStart(i) || notNames[t.word] || discourse[t.word] || !capWord(t.raw) {
		return -1
	}
	if r := []rune(trimPunct(t.raw)); len(r) == 0 || !unicode.IsLetter(r[0]) {
		return -1
	}
	if acronym(t.raw) {
		return -1
	}
	last := f.capRun(i)
	for last > i && f.tool[f.toks[last].word] {
		last--
	}
	if f.spelledOut(i, last) {
		return -1
	}
	return last
}

// acronym: a short all-capital word (CSV, ID, URL): a kind of thing the
// request talks about, not a value of it.
func acronym(raw string) bool {
	w := trimPunct(raw)
	n := 0
	for _, r := range w {
		if !unicode.IsUpper(r) {
			return false
		}
		n++
	}
	return n >= 2 && n <= 5
}

// spelledOut: the name [i, last] spells out an acronym written beside it
// in brackets, or is itself in brackets after one ("Return on Investment"
// of "ROI (Return on Investment)"): it names the acronym, not a value.
func (f *filler) spelledOut(i, last int) bool {
	if strings.HasPrefix(f.toks[i].raw, "(") {
		return true
	}
	if last+1 < len(f.toks) {
		next := f.toks[last+1].raw
		return strings.HasPrefix(next, "(") && acronym(next)
	}
	return false
}

// toolName: every word of v is a word of the tool's id or name
// ("system/current_time").
func (f *filler) toolName(v string) bool {
	words := strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, w := range words {
		if !f.tool[w] {
			return false
		}
	}
	return len(words) > 0
}

// anyShape: v has the look of a value (a path, URL, address, glob, host,
// repository, channel).
func anyShape(v string) bool {
	for _, sh := range shapes {
		if sh.fits(v) {
			return true
		}
	}
	return false
}

// isNumber: digits, with the separators and signs numbers are written
// with ("1,000", "19.5", "50%", "$20").
func isNumber(s string) bool {
	s = strings.TrimLeft(s, "$€£+-")
	s = strings.TrimRight(s, "%")
	digits := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits = true
		case r == '.' || r == ',':
		default:
			return false
		}
	}
	return digits
}

// measure: a number with its unit or suffix in one word ("24h", "3pm",
// "10k", "2x"): a value, where a word that starts with a letter and holds
// digits is a name ("sha256", "ipv6", "mp4").
func measure(v string) bool {
	if v == "" || v[0] < '0' || v[0] > '9' {
		return false
	}
	return strings.ContainsFunc(v, unicode.IsLetter)
}

// valueKind is what an unmapped value looks like, for choosing the
// parameter that would take it.
type valueKind int

const (
	valueText valueKind = iota
	valueNumber
	valueShape
	valueName
	// valueMeasure is a number with its unit ("10MB", "24h"): text, but
	// never a pattern of names.
	valueMeasure
	// valueSort is an order asked for ("sorted by size"), which only a
	// parameter named for sorting takes.
	valueSort
	// valueWhen is a time the things found must fit ("modified today"),
	// which only a parameter named for a time takes.
	valueWhen
	// valueWord is a plain word left over ("pasta"): reported with no
	// parameter to take it (takerOf).
	valueWord
)

// whenCues say that a time filters what is found: "modified today",
// "created last week", "changed since yesterday".
var whenCues = setOf("modified", "changed", "created", "updated", "edited", "added", "touched")

// recurrenceEnd is the last token of a recurrence opened by "every" or
// "each" at token i ("every day", "each Monday and Thursday"), or -1. The
// day may have been read already as the first one's date ("each Friday
// at 4pm" starts next Friday).
func (f *filler) recurrenceEnd(i int) int {
	if !f.free(i) || !recurrenceWords[f.toks[i].word] {
		return -1
	}
	if _, last, ok := f.recurrenceAt(i); ok {
		return last
	}
	if i+1 < len(f.toks) && !endsClause(f.toks[i].raw) {
		if _, ok := weekdays[f.toks[i+1].word]; ok {
			return i + 1
		}
	}
	return -1
}

// shareWords are shares of a whole: "half of", "a third of".
var shareWords = setOf("half", "third", "quarter")

// fractionOf is the one missing number parameter when token i writes a
// share of a thing ("half of order 77", "a third of the balance"), not of
// a time ("the first half of the year"); else nil.
func (f *filler) fractionOf(i int) *property {
	if !shareWords[f.toks[i].word] || endsClause(f.toks[i].raw) || !f.free(i+1) || f.toks[i+1].word != "of" {
		return nil
	}
	k := i + 2
	for f.free(k) && determiners[f.toks[k].word] {
		k++
	}
	if k < len(f.toks) && (timeWord(f.toks[k].word) || relativePeriods[f.toks[k].word]) {
		return nil
	}
	return f.soleMissingWhere(func(p *property) bool { return (p.typ == "number" || p.typ == "integer") && len(p.enum) == 0 })
}

// relativeDays are the days a request names relative to now.
var relativeDays = setOf("today", "yesterday", "tonight", "tomorrow", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

// relativePeriods follow this/last/past: "last week", "this month".
var relativePeriods = setOf("hour", "day", "week", "month", "year", "weekend")

// whenNames are the words of parameters that take a time.
var whenNames = setOf("date", "time", "since", "after", "before", "until", "modified", "mtime", "newer", "older", "age", "from", "period", "days", "when")

// whenAt is the last token of a time filter starting at token i ("modified
// today", "created last week", "changed since yesterday"), or -1.
func (f *filler) whenAt(i int) int {
	if !f.free(i) || !whenCues[f.toks[i].word] {
		return -1
	}
	j := i + 1
	if f.free(j) && (f.toks[j].word == "since" || f.toks[j].word == "on" || f.toks[j].word == "in") {
		j++
	}
	switch {
	case !f.free(j):
		return -1
	case relativeDays[f.toks[j].word]:
		return j
	case (f.toks[j].word == "this" || f.toks[j].word == "last" || f.toks[j].word == "past") && f.free(j+1) && relativePeriods[f.toks[j+1].word]:
		return j + 1
	}
	return -1
}

// sortCues ask for an order: "sorted by", "ordered by", "ranked by".
var sortCues = setOf("sort", "sorted", "sorting", "order", "ordered", "rank", "ranked")

// sortNames are the words of parameters that take an order.
var sortNames = setOf("sort", "sortby", "order", "orderby", "ordering", "rank")

// rankWords ask for the first of an order: "the top 3 processes by cpu",
// "the largest files by size", "which use the most memory".
var rankWords = setOf("top", "largest", "biggest", "smallest", "highest", "lowest", "heaviest", "busiest", "most", "least", "first", "last")

// sortStart is the first token of the order asked for that ends at token
// i, or -1: "sorted by size" ("ordered by", "ranked by"), a "by X" after
// a rank word in the three tokens before it ("top 3 processes by cpu"),
// or "most X" / "least X" ("the most memory"). The key is often a word of
// the tool's own (a process list describes its cpu column): it is read
// before such words are passed over.
func (f *filler) sortStart(i int) int {
	if i < 1 || !f.free(i-1) {
		return -1
	}
	w := f.toks[i].word
	if fillers[w] || determiners[w] || pronouns[w] || prepositions[w] || isNumber(w) {
		return -1
	}
	switch prev := f.toks[i-1].word; {
	case prev == "most" || prev == "least":
		return i - 1
	case prev != "by":
		return -1
	case i >= 2 && f.free(i-2) && sortCues[f.toks[i-2].word]:
		return i - 2
	}
	for k := i - 2; k >= 0 && k >= i-4 && f.free(k) && !endsClause(f.toks[k].raw); k-- {
		if rankWords[f.toks[k].word] {
			return i - 1
		}
	}
	return -1
}

// takerOf is the parameter that would take an unmapped value: one the
// intent left unset (a default does not count) whose type the value fits,
// preferring, in order, one named for its shape (a path for a path), for
// a name one for a place, then one for a work's title, one without a
// default, a required one, the first declared.
func (f *filler) takerOf(text string, kind valueKind) string {
	if kind == valueWord {
		// A plain word left over is reported, never given a taker: a
		// taker holds the call back (Unplaced), and which plain-text
		// parameter an ordinary word was meant for ("wear", "found") is a
		// guess too weak to stop a call for. The result names the word.
		return ""
	}
	best, bestScore := "", -1
	for _, p := range f.s.props {
		if f.given[p.name] || f.failed[p.name] || !f.fits(p, text, kind) || kind == valueMeasure && globParam(p) ||
			kind == valueSort && !fitsName(p, sortNames) || kind == valueWhen && !fitsName(p, whenNames) {
			continue
		}
		score := 0
		for _, sh := range shapes {
			if sh.fits(text) && (fitsName(p, sh.names) || sh.described != nil && sh.described(p)) {
				score += 8
			}
		}
		if kind == valueName && (zoneProp(p) || fitsName(p, placeNames)) {
			score += 4
		}
		// A name is a work's title sooner than a channel or a device's
		// (workTitleProp: "Movie, show or streaming app to open").
		if kind == valueName && workTitleProp(p) {
			score += 3
		}
		if !p.hasDefault {
			score += 2
		}
		if p.required {
			score++
		}
		if score > bestScore {
			best, bestScore = p.name, score
		}
	}
	return best
}

// heldBy is the parameter the intent already gave a value of text's shape
// (a path, a URL, an address) that would have taken text too: "sha256 of
// a.txt and b.txt" for a tool taking one path. Empty when there is none,
// or when the parameter is a list (the rules put every value in a list).
func (f *filler) heldBy(text string) string {
	for _, p := range f.s.props {
		held, ok := f.args[p.name].(string)
		if !f.given[p.name] || !ok || p.typ != "string" || !f.fits(p, text, valueShape) {
			continue
		}
		for _, sh := range shapes {
			if sh.fits(text) && sh.fits(held) && fitsName(p, sh.names) {
				return p.name
			}
		}
	}
	return ""
}

// heldPlace is the place or time zone parameter the intent already gave
// a value, when text is a place too, one package places knows whole
// ("Tokyo", "New York"): a second value for a parameter that takes one,
// as heldBy reads a second path. Empty when there is none.
func (f *filler) heldPlace(text string) string {
	if _, ok := wholePlace(text); !ok {
		return ""
	}
	for _, p := range f.s.props {
		if _, ok := f.args[p.name].(string); ok && f.given[p.name] && p.place {
			return p.name
		}
	}
	return ""
}

// takesPlace: p takes a place or a time zone (property.place).
func takesPlace(p *property) bool {
	return p.typ == "string" && (zoneProp(p) || isPlaceProp(p) || fitsName(p, placeNames))
}

// placeNames are words of parameters that take a place.
var placeNames = setOf("location", "city", "place", "country", "region", "address", "destination", "origin")

// fits: p could hold text, by its type, its enum and the schema's own
// checks (a pattern, a length).
func (f *filler) fits(p *property, text string, kind valueKind) bool {
	switch {
	case len(p.enum) > 0:
		return false
	case p.sql && !looksSQL(text):
		return false // a name is no query: "the sheet Retention" is for the spreadsheet
	case p.typ == "integer" || p.typ == "number":
		if kind != valueNumber {
			return false
		}
	case p.typ == "string" || p.typ == "" || p.typ == "array":
	default:
		return false
	}
	v, err := coerce(p, text)
	if err != nil {
		return false
	}
	args := make(map[string]any, len(f.args)+1)
	for k, x := range f.args {
		args[k] = x
	}
	args[p.name] = v
	err = f.s.check.Validate(args)
	return err == nil || !strings.Contains(err.Error(), "at /"+p.name)
}

// Unplaced are the unmapped values of call that a parameter of its tool
// would take: the call should not run without them. A value for a
// parameter that already holds one (Tool is then the call's own tool) is
// not: the call runs, and the agent asks for it again.
func Unplaced(call schemas.ToolCall) []schemas.Unmapped {
	var out []schemas.Unmapped
	for _, u := range call.Unmapped {
		if u.Unplaced() {
			out = append(out, u)
		}
	}
	return out
}

// UnmappedMessage tells the agent which values of its intent no argument
// took and how to write them, with the call as read so far:
// `"Atlantis" was not used: timezone (string: IANA time zone …) would take
// it. … [TOOL: system/current_time timezone=Europe/Paris]`.
func UnmappedMessage(call schemas.ToolCall, m schemas.Manifest) string {
	un := Unplaced(call)
	e, err := cached(m)
	if len(un) == 0 || err != nil {
		return ""
	}
	var b strings.Builder
	ex := &MissingError{ToolID: call.ToolID, Found: map[string]any{}}
	for _, p := range e.schema.props {
		if v, ok := call.Parameters[p.name]; ok && !(p.hasDefault && equalJSON(v, p.def)) {
			ex.Found[p.name] = v
			ex.order = append(ex.order, p.name)
		}
	}
	for i, u := range un {
		if i > 0 {
			b.WriteString(" ")
		}
		p := e.schema.prop(u.Parameter)
		if p == nil {
			continue
		}
		if what := takes(p); what != "" && !canTake(p, u.Text) {
			// "sha3" for md5 … sha512, "2.5" for a count of lines.
			fmt.Fprintf(&b, "%q was not used: %s takes %s.", u.Text, p.name, what)
		} else {
			fmt.Fprintf(&b, "%q was not used: %s would take it.", u.Text, describeParam(paramOf(p)))
		}
		if _, dup := ex.Found[p.name]; !dup && !slices.ContainsFunc(ex.Missing, func(q Param) bool { return q.Name == p.name }) {
			ex.Missing = append(ex.Missing, paramOf(p))
		}
	}
	fmt.Fprintf(&b, " The call did not run. Write the value as key=value in the intent, e.g. %s, or leave the words out to run it without them.", ex.Example())
	return b.String()
}

// takes says what kind of value p takes, for a value it cannot take:
// "one of md5, sha1", "a whole number"; "" for a kind that says nothing
// more than its description.
func takes(p *property) string {
	switch {
	case len(p.enum) > 0:
		return typeSummary(p.typ, p.enum)
	case p.typ == "integer":
		return "a whole number"
	case p.typ == "number":
		return "a number"
	case p.typ == "boolean":
		return "yes or no"
	}
	return ""
}

// canTake: text coerces to p's type.
func canTake(p *property, text string) bool {
	_, err := coerce(p, text)
	return err == nil
}

// equalJSON: two decoded JSON values are the same value.
func equalJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// UnmappedResult is the missing_arguments answer to a call that Unplaced
// says should not run: what it read (args, secrets already redacted), the
// values it could not place, and how to write them.
func UnmappedResult(stage string, call schemas.ToolCall, m schemas.Manifest, args map[string]any) schemas.Result {
	return schemas.Result{
		SessionID: call.SessionID, MessageID: call.MessageID, IntentID: call.IntentID, Intent: call.Intent,
		ToolID: call.ToolID, Status: schemas.StatusMissingArguments, Stage: stage,
		Message: UnmappedMessage(call, m), Arguments: args, Unmapped: call.Unmapped, Hint: call.Hint, Outer: call.Outer,
	}
}

// otherToolNames maps the one-word names of the candidates other than the
// chosen tool to their ids: the last part of an id ("uptime" of
// system/uptime, lower-cased) or a one-word name.
func otherToolNames(cands []schemas.Candidate, chosen string) map[string]string {
	var out map[string]string
	for _, c := range cands {
		if c.ToolID == chosen {
			continue
		}
		local := c.ToolID[strings.LastIndexByte(c.ToolID, '/')+1:]
		for _, n := range []string{local, c.Name} {
			n = strings.ToLower(n)
			if len(n) < 3 || strings.ContainsFunc(n, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) || requestWord(n) {
				continue
			}
			if out == nil {
				out = map[string]string{}
			}
			if out[n] == "" {
				out[n] = c.ToolID
			}
		}
	}
	return out
}

// requestWord: a word requests use for their own sake ("search", "help",
// "execute", "load"), which names a tool only by chance: Toolyard's meta
// tools, in every registry, are named so.
func requestWord(w string) bool {
	return commonWord(w) || cueWords[w] || metaWords[w]
}

// metaWords are the names of Toolyard's meta tools that no other word set
// holds.
var metaWords = setOf("load", "activate")
