package resolve

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// durationNames are the names of string parameters that take a length of
// time ("10m", "1h30m", "90 seconds").
var durationNames = setOf("duration", "length", "timeout", "countdown")

// durationUnits are the written units of a length of time, with the letter
// a compact form writes them with.
var durationUnits = map[string]string{
	"second": "s", "seconds": "s", "sec": "s", "secs": "s",
	"minute": "m", "minutes": "m", "min": "m", "mins": "m",
	"hour": "h", "hours": "h", "hr": "h", "hrs": "h",
}

// applyDurations fills a string parameter named for a length of time (or
// for how far back to look: takesLength) from
// one written as such, a number and a unit, or several ("10 minutes", "an
// hour", "1 hour 30 minutes"), halves read whole ("an hour and a half",
// "two and a half hours", "half an hour": 1h30m, 2h30m, 30m), in the
// compact form ("10m", "1h30m") when the parameter's description or
// examples write it so, else as written. A number-typed length
// ("duration_minutes") is the cues' ("for 45 minutes").
func (f *filler) applyDurations() {
	var target *property
	for _, p := range f.s.props {
		if f.missing(p) && p.lengthText {
			target = p
			break
		}
	}
	if target == nil {
		return
	}
	for i := 0; i < len(f.toks); i++ {
		var compact strings.Builder
		last := -1
		for j := i; f.free(j); {
			c, width, ok := f.lengthAt(j)
			if !ok {
				break
			}
			compact.WriteString(c)
			last = j + width - 1
			j += width
			if f.free(j) && f.toks[j].word == "and" {
				j++ // "1 hour and 30 minutes"
			}
		}
		if last < 0 {
			continue
		}
		v := f.spanValue(i, last)
		if target.compactLengths {
			v = compact.String()
		}
		if f.try(target, v) {
			f.useTokens(rangeIdx(i, last)...)
		}
		return
	}
}

// lookbackNames name, or describe, a string parameter for how far back
// to look ("since", "Only logs newer than this").
var lookbackNames = setOf("since", "lookback", "within", "newer", "older", "age")

// takesLength: p is a text parameter named for a length of time, or for
// how far back to look with lengths written compactly ("Only logs newer
// than this, e.g. 10m, 1h": "for the last 15 minutes" is its 15m). A step
// or an interval written so is not: "over the last 6 hours" is no step.
// Set once per manifest (property.lengthText), after compactLengths.
func takesLength(p *property) bool {
	return stringProp(p) && (fitsName(p, durationNames) || p.compactLengths && (fitsName(p, lookbackNames) || describesAny(p, lookbackNames)))
}

// halfOf is half of a unit of time, compact: half a second is no whole
// one, and is not read.
var halfOf = map[string]string{"h": "30m", "m": "30s"}

// lengthAt reads a length of time at token j: a number and a unit, as
// two words ("10 minutes", "an hour", "five seconds") or one hyphenated
// ("a 45-minute countdown") or compact ("45m"), and a half with it ("an hour and a half",
// "two and a half hours", "1.5 hours", "half an hour"). It returns the
// length compact ("1h30m") and how many tokens it takes.
func (f *filler) lengthAt(j int) (compact string, width int, ok bool) {
	if w := f.toks[j].word; compactLength.MatchString(w) {
		return w, 1, true // "for 45m": written as the parameter takes it
	}
	n, half, word, width := f.unitAmountAt(j, func(u string) bool { _, ok := durationUnits[u]; return ok })
	if width == 0 {
		return "", 0, false
	}
	unit := durationUnits[word]
	if _, halves := halfOf[unit]; halves && !half && f.wordsAt(j+width, "and", "a", "half") {
		half, width = true, width+3 // "an hour and a half"
	}
	if n > 0 {
		compact = fmt.Sprintf("%d%s", n, unit)
	}
	if half {
		h, ok := halfOf[unit]
		if !ok {
			return "", 0, false
		}
		compact += h
	}
	return compact, width, true
}

// unitAmountAt reads an amount of a unit of time at token j, as lengthAt
// and spanAt share it: the number and its unit hyphenated ("a 45-minute
// …", "a 30-year loan"), or an amount (amountAt) and the unit's word after
// it. isUnit says which words are units; unit is the word as written.
// width is 0 when there is none; "and a half" after it is the caller's,
// whose units may not halve.
func (f *filler) unitAmountAt(j int, isUnit func(string) bool) (n int, half bool, unit string, width int) {
	if num, u, hyphen := strings.Cut(f.toks[j].word, "-"); hyphen {
		if v, err := strconv.Atoi(num); err == nil && v > 0 && isUnit(u) {
			return v, false, u, 1
		}
		return 0, false, "", 0
	}
	n, half, width = f.amountAt(j)
	if width == 0 || !f.free(j+width) || !isUnit(f.toks[j+width].word) {
		return 0, false, "", 0
	}
	return n, half, f.toks[j+width].word, width + 1
}

// amountAt reads how many of a unit of time token j starts: a number, a
// number in words or "a"/"an", with a half ("2.5", "two and a half"), or
// "half a"/"half an". It returns the whole number, whether a half goes
// with it, and how many tokens it takes (0: no amount).
func (f *filler) amountAt(j int) (n int, half bool, width int) {
	w := f.toks[j].word
	if f.wordsAt(j, "half", "a") || f.wordsAt(j, "half", "an") {
		return 0, true, 2 // "half an hour"
	}
	if whole, ok := strings.CutSuffix(w, ".5"); ok {
		w, half = whole, true // "1.5 hours"
	}
	if v, err := strconv.Atoi(w); err == nil && (v > 0 || half && v == 0) {
		n = v
	} else if v, isWord := numberWord(w); isWord && v > 0 && !half {
		n = v
	} else if (w == "a" || w == "an") && !half {
		n = 1
	} else {
		return 0, false, 0
	}
	if !half && f.wordsAt(j+1, "and", "a", "half") {
		return n, true, 4 // "two and a half hours"
	}
	return n, half, 1
}

// wordsAt: the free tokens from j are the words ws, within one clause.
// In place, without freeWords' slices: the bound phrases are tried at
// every token of every request.
func (f *filler) wordsAt(j int, ws ...string) bool {
	for k, w := range ws {
		if !f.free(j+k) || k > 0 && endsClause(f.toks[j+k-1].raw) || f.toks[j+k].word != w {
			return false
		}
	}
	return true
}

// compactStyle: the parameter's description or examples write lengths of
// time compactly ("10m", "1h30m").
func compactStyle(p *property) bool {
	if compactDuration.MatchString(p.description) {
		return true
	}
	for _, e := range p.examples {
		if s, ok := e.(string); ok && compactDuration.MatchString(s) {
			return true
		}
	}
	return false
}

var compactDuration = regexp.MustCompile(`\b\d+[hms](\d+[ms])?\b`)

// compactLength is a length of time written compact as one word ("45m",
// "2h", "1h30m"): the durations rule took only lengths in words, and
// dropped "silence it for 45m".
var compactLength = regexp.MustCompile(`^[1-9]\d*[hms](\d+[ms])?$`)

// spanUnits are the units of a length of time a numeric parameter may be
// written in, with how many of the smallest of their kind each is:
// seconds up to weeks, months up to years. A month is no fixed number of
// days, so the two kinds do not convert.
var spanUnits = map[string]struct {
	kind   string
	amount float64
}{
	"second": {"s", 1}, "seconds": {"s", 1}, "sec": {"s", 1}, "secs": {"s", 1},
	"minute": {"s", 60}, "minutes": {"s", 60}, "min": {"s", 60}, "mins": {"s", 60},
	"hour": {"s", 3600}, "hours": {"s", 3600}, "hr": {"s", 3600}, "hrs": {"s", 3600},
	"day": {"s", 86400}, "days": {"s", 86400}, "week": {"s", 604800}, "weeks": {"s", 604800},
	"month": {"mo", 1}, "months": {"mo", 1}, "quarter": {"mo", 3}, "quarters": {"mo", 3},
	"year": {"mo", 12}, "years": {"mo", 12}, "yr": {"mo", 12}, "yrs": {"mo", 12},
}

// spanNames name, or describe, a numeric parameter for how long a thing
// lasts.
var spanNames = setOf("term", "duration", "length", "period", "timeout", "ttl", "delay", "lifetime", "tenure", "span",
	"expiry")

// spanUnitOf is the unit a numeric parameter for a length of time takes
// it in: the one its description writes after "in" ("Term in months"),
// else the last word of its name (duration_minutes), or "".
func spanUnitOf(p *property) string {
	if p.typ != "integer" && p.typ != "number" || len(p.enum) > 0 {
		return ""
	}
	if !fitsName(p, spanNames) && !describesAny(p, spanNames) {
		return ""
	}
	fields := strings.Fields(p.desc)
	for i := 0; i+1 < len(fields); i++ {
		if u := trimPunct(fields[i+1]); fields[i] == "in" && spanUnits[u].kind != "" {
			return u
		}
	}
	if len(p.words) > 0 && spanUnits[p.words[len(p.words)-1]].kind != "" {
		return p.words[len(p.words)-1]
	}
	return ""
}

// applyLengths is the rule lengths: a length of time with its unit ("over
// 30 years", "a 2-year term", "for an hour and a half") fills the one
// missing numeric parameter for a length of time whose unit is of the
// same kind, converted to that unit ("30 years" → 360 for "Term in
// months"); a number-typed length had taken the bare number or nothing.
func (f *filler) applyLengths() {
	var targets []*property
	for _, p := range f.s.props {
		if p.spanUnit != "" && f.missing(p) {
			targets = append(targets, p)
		}
	}
	if len(targets) == 0 {
		return // most tools: no request's words need reading
	}
	for i := 0; i < len(f.toks); i++ {
		n, unit, width := f.spanAt(i)
		if width == 0 {
			continue
		}
		var target *property
		for _, p := range targets {
			if spanUnits[p.spanUnit].kind == spanUnits[unit].kind {
				if target != nil {
					return
				}
				target = p
			}
		}
		if target == nil {
			continue
		}
		v := n * spanUnits[unit].amount / spanUnits[target.spanUnit].amount
		if f.try(target, strconv.FormatFloat(v, 'f', -1, 64)) {
			f.useTokens(rangeIdx(i, i+width-1)...)
		}
		return
	}
}

// spanAt reads a length of time at token i, a number (or "a", a number in
// words, a half with it) and a unit of spanUnits, or both hyphenated ("a
// 30-year loan"); it returns the amount, the unit and how many tokens it
// takes (0: none).
func (f *filler) spanAt(i int) (float64, string, int) {
	if !f.free(i) {
		return 0, "", 0
	}
	n, half, unit, width := f.unitAmountAt(i, func(u string) bool { _, ok := spanUnits[u]; return ok })
	if width == 0 {
		return 0, "", 0
	}
	if !half && f.wordsAt(i+width, "and", "a", "half") {
		half, width = true, width+3 // "a year and a half"
	}
	v := float64(n)
	if half {
		v += 0.5
	}
	return v, unit, width
}
