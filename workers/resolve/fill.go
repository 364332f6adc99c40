package resolve

import (
	"fmt"
	"strings"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/internal/places"
)

// filler applies the rules of the package doc to one intent, in order.
type filler struct {
	text string
	s    *toolSchema
	// args are the values so far; given marks those that came from the
	// intent rather than defaults; failed marks properties whose given value
	// did not coerce, so they are reported as invalid and not as missing.
	args   map[string]any
	given  map[string]bool
	failed map[string]bool
	// problems are coercion failures of values the agent gave explicitly.
	problems []string
	pairs    []pair
	// pairUsed marks pairs that filled a property.
	pairUsed []bool
	toks     []token
	// hidden are byte ranges of the text read whole by a rule before the
	// words are split (a SQL statement): no word rule reads them.
	hidden [][2]int
	tool   map[string]bool
	// others maps the one-word names of the other tools discovery
	// offered for the intent to their ids (otherToolNames): a request
	// that names one asked for more than this tool does.
	others map[string]string
	// written is the set of the request's words, built when a rule first
	// asks (writesNameOf).
	written map[string]bool
	// toolID is the tool being filled, named by a value its parameter
	// cannot also take (heldBy).
	toolID string
	// zone is the output's time zone (Intent.TimeZone), nil for the
	// worker's: the moments a request writes are read in it.
	zone *time.Location
	// nested are the byte spans of the text that hold an inner intent's
	// result (Intent.Nested): each is one value, whole, which no frame
	// of the request reaches into.
	nested []schemas.Nested
	// moments are days written for a date-time property without their
	// time of day (applyMoments), and states no parameter takes
	// (applyStates): reported, not placed.
	moments []schemas.Unmapped
	// repeatDays are the weekdays of a recurrence a parameter took
	// (applyRepeatDays): the first time it happens falls on one of them
	// ("every Monday at 9" starts on a Monday).
	repeatDays []time.Weekday
}

func newFiller(text string, s *toolSchema, toolWordSet map[string]bool) *filler {
	f := &filler{
		text: text, s: s, tool: toolWordSet,
		args:   make(map[string]any, len(s.props)),
		given:  make(map[string]bool, len(s.props)),
		failed: map[string]bool{},
	}
	f.pairs = extractPairs(text)
	f.pairUsed = make([]bool, len(f.pairs))
	return f
}

func (f *filler) missing(p *property) bool {
	return !f.given[p.name] && !f.failed[p.name]
}

// set records an explicit value, reporting a value that does not coerce.
func (f *filler) set(p *property, raw string) bool {
	v, err := coerce(p, raw)
	if err != nil {
		f.failed[p.name] = true
		f.problems = append(f.problems, fmt.Sprintf("%s: %v (expected %s)", p.name, err, expectation(p)))
		return false
	}
	f.store(p, v)
	return true
}

// unset takes back a value stored for p, as if none had been.
func (f *filler) unset(p *property) {
	delete(f.args, p.name)
	delete(f.given, p.name)
}

// try records a guessed value only if it coerces; a wrong guess is not the
// agent's mistake.
func (f *filler) try(p *property, raw string) bool {
	if noPronounFor(p) && pronounOnly(raw) {
		return false // "I", "it": a pronoun is no name
	}
	if p.sql && !looksSQL(raw) {
		return false // "a query joining users and plans" describes SQL, is none
	}
	if p.ticker && !tickerShaped(strings.TrimSpace(raw)) {
		return false // "Nvidia" is a company, not its ticker: reported
	}
	if timeWordsOnly(raw) && !p.date && !describesWord(p, strings.ToLower(strings.TrimSpace(raw))) {
		return false // "for the past 30 days": "past" is when, not what
	}
	if f.unnamedThing(p) {
		return false // "as a new table": none is named
	}
	if p.format == "date-time" && !rfc3339(raw) {
		return false // "10-11am", "Sam": a word or a clock is no date-time; the moments rule writes them
	}
	v, err := coerce(p, numberSign(p, raw))
	if err != nil {
		return false
	}
	f.store(p, v)
	return true
}

func (f *filler) store(p *property, v any) {
	if prev, ok := f.args[p.name].([]any); ok && f.given[p.name] && p.typ == "array" {
		if more, ok := v.([]any); ok {
			v = append(prev, more...)
		}
	}
	f.args[p.name] = v
	f.given[p.name] = true
	delete(f.failed, p.name)
}

// applyKeyed is rule 1: key=value and key: value pairs.
func (f *filler) applyKeyed() {
	for i, pr := range f.pairs {
		if pr.key == "" || f.pairUsed[i] {
			continue
		}
		p, start := f.matchKey(pr)
		if p != nil && pr.form == ':' && namesItself(fieldBefore(f.text, start)) {
			// "message the #random channel: pizza is here": the key word
			// is the noun its own value stands before; the colon opens
			// what follows, which is no channel. Left unused, its words
			// go to the word rules.
			continue
		}
		if p == nil {
			if pr.quoted {
				// `the sentence: "…"`: no parameter is called sentence,
				// but the quoted value is still one; the key stays a word
				// that may cue it.
				f.pairs[i].key, f.pairs[i].form, f.pairs[i].start, f.pairs[i].keyStart = "", 0, pr.valueStart, pr.valueStart
			}
			continue
		}
		f.pairs[i].start = start
		f.pairUsed[i] = true
		f.set(p, keyedZone(p, pr.value))
	}
}

// keyedZone is a keyed value as a time zone parameter takes it: a place
// written for one ("timezone=Tokyo", as a second place is asked for
// again) is its zone, as the zones rule reads it in prose; a zone name in
// any case, or an offset, is the database's name ("europe/paris" →
// "Europe/Paris", "UTC+2" → "Etc/GMT-2"); any other value stays as written.
func keyedZone(p *property, v string) string {
	if !zoneProp(p) {
		return v
	}
	if z, ok := places.ZoneName(v); ok {
		return z
	}
	if z, ok := wholePlace(v); ok {
		return z
	}
	return v
}

// matchKey finds the property a key names. A colon key may be the last word
// of a spaced name ("max results: 5"), so up to two preceding words join it.
func (f *filler) matchKey(pr pair) (*property, int) {
	if p := f.s.prop(pr.key); p != nil {
		return p, pr.start
	}
	if p, ok := f.s.byNorm[normalize(pr.key)]; ok {
		return p, pr.start
	}
	if p := f.s.byLastWord(pr.key); p != nil {
		return p, pr.start
	}
	start := pr.start
	key := pr.key
	for n := 0; n < 2; n++ {
		w, ws := wordBefore(f.text, start)
		if w == "" {
			break
		}
		key = w + " " + key
		start = ws
		if p, ok := f.s.byNorm[normalize(key)]; ok {
			return p, start
		}
	}
	return nil, pr.start
}

// fieldBefore is the whitespace-separated field that ends just before i
// (after spaces), "" at the start.
func fieldBefore(text string, i int) string {
	j := i
	for j > 0 && text[j-1] == ' ' {
		j--
	}
	k := j
	for k > 0 && text[k-1] != ' ' {
		k--
	}
	return text[k:j]
}

// namesItself: a field is a name written as such — a channel or a handle
// ("#ops", "@ann"), or a name with a slash or a dot ("acme/api",
// "report.pdf") — not a word that would be a label's first word.
func namesItself(field string) bool {
	field = strings.Trim(field, "\"'“”‘’")
	if len(field) < 2 {
		return false
	}
	return field[0] == '#' || field[0] == '@' || strings.ContainsAny(field[1:], "/.")
}

// wordBefore returns the word that ends just before i (after spaces).
func wordBefore(text string, i int) (string, int) {
	j := i
	for j > 0 && text[j-1] == ' ' {
		j--
	}
	k := j
	for k > 0 && text[k-1] != ' ' && isKeyRune(rune(text[k-1])) {
		k--
	}
	if k == j {
		return "", i
	}
	return text[k:j], k
}

// tokenizeRest splits the text outside the pairs into words for the word
// rules. Unmatched keyed pairs stay visible: their words may still be cues.
func (f *filler) tokenizeRest() {
	hidden := make([]bool, len(f.text))
	for i, pr := range f.pairs {
		if f.pairUsed[i] || pr.key == "" {
			for b := pr.start; b < pr.end; b++ {
				hidden[b] = true
			}
		}
	}
	for _, r := range f.hidden {
		for b := r[0]; b < r[1]; b++ {
			hidden[b] = true
		}
	}
	f.toks = tokenize(f.text, hidden)
}

// applyDefaults is rule 7.
func (f *filler) applyDefaults() {
	for _, p := range f.s.props {
		if _, set := f.args[p.name]; set || f.failed[p.name] {
			continue
		}
		switch {
		case f.zone != nil && zoneProp(p) && f.try(p, f.zone.String()):
			// The request names no zone: the person's own, when the
			// output says it, before the tool's default (often the
			// machine's, which is not theirs).
		case p.hasDefault:
			f.args[p.name] = p.def
		}
	}
}

// rfc3339 says whether s is a date-time as RFC 3339 writes it, the form a
// parameter of format date-time takes (JSON Schema's format is not
// checked by the validator: an annotation unless asserted).
func rfc3339(s string) bool {
	_, err := time.Parse(time.RFC3339, strings.TrimSpace(s))
	return err == nil
}
