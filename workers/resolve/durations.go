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

// applyDurations fills a string parameter named for a length of time from
// one written as such, a number and a unit, or several ("10 minutes", "an
// hour", "1 hour 30 minutes"), in the compact form ("10m", "1h30m") when
// the parameter's description or examples write it so, else as written. A
// number-typed length ("duration_minutes") is the cues' ("for 45 minutes").
func (f *filler) applyDurations() {
	var target *property
	for _, p := range f.s.props {
		if f.missing(p) && stringProp(p) && len(p.enum) == 0 && fitsName(p, durationNames) {
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
			n, unit, width, ok := f.lengthAt(j)
			if !ok {
				break
			}
			fmt.Fprintf(&compact, "%d%s", n, unit)
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
		if compactStyle(target) {
			v = compact.String()
		}
		if f.try(target, v) {
			f.useTokens(rangeIdx(i, last)...)
		}
		return
	}
}

// lengthAt reads a number and a unit of time at token j, as two words
// ("10 minutes", "an hour", "five seconds") or one hyphenated ("a
// 45-minute countdown"): the number, the unit's letter and how many tokens
// they take.
func (f *filler) lengthAt(j int) (n int, unit string, width int, ok bool) {
	if num, u, hyphen := strings.Cut(f.toks[j].word, "-"); hyphen {
		v, err := strconv.Atoi(num)
		unit, ok = durationUnits[u]
		return v, unit, 1, ok && err == nil && v > 0
	}
	if !f.free(j + 1) {
		return 0, "", 0, false
	}
	if v, err := strconv.Atoi(f.toks[j].word); err == nil && v > 0 {
		n, ok = v, true
	} else if w := f.toks[j].word; w == "a" || w == "an" || w == "one" {
		n, ok = 1, true
	} else if v, isWord := numberWord(w); isWord && v > 0 {
		n, ok = v, true
	}
	unit, isUnit := durationUnits[f.toks[j+1].word]
	return n, unit, 2, ok && isUnit
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
