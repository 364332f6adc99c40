package resolve

import (
	"strconv"
	"strings"
	"time"
)

// A forecast counts days ahead ("days": "Number of days"), and a request
// names the day it is about: "will it rain in Paris on Thursday",
// "forecast for Oslo this weekend", "weather in Rome next week". Read as
// nothing, such a day was dropped without a word and the forecast ran
// with its default three days, which may end before the day asked about.
// The count that reaches the day is the value; a day the default already
// reaches is covered by it, and one past the parameter's maximum is
// reported.

// horizonNames are the names of parameters that count days.
var horizonNames = setOf("days", "day", "ndays", "numdays")

// horizonOf is the tool's count of days ahead, nil when it has none: an
// integer parameter named for days, of a tool whose own text looks ahead
// (a forecast, the days to come). Read once per manifest (toolSchema.horizon).
func horizonOf(s *toolSchema) *property {
	ahead := false
	for _, w := range []string{"forecast", "upcoming", "ahead", "next"} {
		ahead = ahead || strings.Contains(s.own, w)
	}
	if !ahead {
		return nil
	}
	for _, p := range s.props {
		if p.typ == "integer" && fitsName(p, horizonNames) {
			return p
		}
	}
	return nil
}

// applyHorizons is rule horizons: the days ahead a forecast must count to
// reach the day the request names ("on Thursday", "tomorrow", "this
// weekend", "next week"), when the count given or the default does not
// reach it; the day is reported when no count may (past the maximum, or
// the count was given).
func (f *filler) applyHorizons() {
	p := f.s.horizon
	if p == nil {
		return
	}
	ref := f.clock()
	today := time.Date(ref.Year(), ref.Month(), ref.Day(), 0, 0, 0, 0, ref.Location())
	for i := range f.toks {
		last, day, ok := f.dayAhead(i, ref, today)
		if !ok {
			continue
		}
		n := int(day.Sub(today).Hours()/24+0.5) + 1 // today is the first day
		// The count given, or else the default (coerced: int64 for
		// integers), may already reach the day.
		have, ok := f.args[p.name].(int64)
		if !ok {
			have, ok = p.def.(int64)
		}
		switch v := strconv.Itoa(n); {
		case ok && int64(n) <= have:
		case f.missing(p) && f.fits(p, v, valueNumber) && f.try(p, v):
		default:
			// Past the maximum, or past the count the request gave:
			// reported, the day without its "on".
			from := i
			if f.toks[i].word == "on" {
				from++
			}
			for k := from; k <= last; k++ {
				f.toks[k].strayDate = true
			}
		}
		for k := i; k <= last; k++ {
			f.toks[k].used = true
		}
		return
	}
}

// dayAhead reads at token i the last day of what the request asks about,
// from today on: a day (dayAt: "tomorrow", "on Thursday", "December
// 20"), or a week or weekend ("this weekend", "next week", "over the
// weekend"). last is its last token.
func (f *filler) dayAhead(i int, ref, today time.Time) (last int, day time.Time, ok bool) {
	if m, ok := f.dayAt(i, ref); ok && !m.day.Before(today) && !m.clock {
		return m.dayEnd, m.day, true
	}
	if !f.free(i) || !f.free(i+1) {
		return 0, time.Time{}, false
	}
	which, period := f.toks[i].word, f.toks[i+1].word
	if which == "the" && i > 0 && f.toks[i-1].word == "over" {
		which = "this" // "over the weekend"
	}
	toSunday := (7 - int(today.Weekday())) % 7 // days to the coming Sunday, 0 on a Sunday
	switch {
	case which == "this" && (period == "week" || period == "weekend"):
		return i + 1, today.AddDate(0, 0, toSunday), true
	case which == "next" && period == "week":
		return i + 1, today.AddDate(0, 0, toSunday+7), true
	case which == "next" && period == "weekend":
		if today.Weekday() == time.Saturday || today.Weekday() == time.Sunday {
			return i + 1, today.AddDate(0, 0, toSunday+7), true
		}
		return i + 1, today.AddDate(0, 0, toSunday), true
	}
	return 0, time.Time{}, false
}
