package resolve

import (
	"fmt"
	"regexp"
	"slices"
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
// hour", "1 hour 30 minutes"), halves read whole ("an hour and a half",
// "two and a half hours", "half an hour": 1h30m, 2h30m, 30m), in the
// compact form ("10m", "1h30m") when the parameter's description or
// examples write it so, else as written. A number-typed length
// ("duration_minutes") is the cues' ("for 45 minutes").
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
		if compactStyle(target) {
			v = compact.String()
		}
		if f.try(target, v) {
			f.useTokens(rangeIdx(i, last)...)
		}
		return
	}
}

// halfOf is half of a unit of time, compact: half a second is no whole
// one, and is not read.
var halfOf = map[string]string{"h": "30m", "m": "30s"}

// lengthAt reads a length of time at token j: a number and a unit, as
// two words ("10 minutes", "an hour", "five seconds") or one hyphenated
// ("a 45-minute countdown"), and a half with it ("an hour and a half",
// "two and a half hours", "1.5 hours", "half an hour"). It returns the
// length compact ("1h30m") and how many tokens it takes.
func (f *filler) lengthAt(j int) (compact string, width int, ok bool) {
	if num, u, hyphen := strings.Cut(f.toks[j].word, "-"); hyphen {
		v, err := strconv.Atoi(num)
		unit, ok := durationUnits[u]
		return fmt.Sprintf("%d%s", v, unit), 1, ok && err == nil && v > 0
	}
	n, half, width := f.amountAt(j)
	if width == 0 || !f.free(j+width) {
		return "", 0, false
	}
	unit, ok := durationUnits[f.toks[j+width].word]
	if !ok {
		return "", 0, false
	}
	width++
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
	if v, err := strconv.Atoi(w); err == nil && (v > 0 || half) {
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
func (f *filler) wordsAt(j int, ws ...string) bool {
	words, _, ok := f.freeWords(j, j+len(ws)-1)
	return ok && slices.Equal(words, ws)
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
