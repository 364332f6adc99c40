package resolve

import (
	"strings"
	"time"
)

// Date ranges: a request names a stretch of days ("over the last 90 days",
// "last week", "this month", "March 2024", "Q3 2024", "in 2023", "since
// June") and a tool takes its bounds as a start and an end date. Each
// bound gets the period's first or last day, in the request's time zone.
// Without this rule a data tool ran over all time, the period's words
// unmapped ("revenue for March 2024" → no start, no end), or took the
// period's unit for a grain ("last quarter" → grain=quarter).

// rangeUnits are the units of a period, by their singular.
var rangeUnits = map[string]string{
	"day": "day", "days": "day", "week": "week", "weeks": "week", "month": "month", "months": "month",
	"quarter": "quarter", "quarters": "quarter", "year": "year", "years": "year",
}

// rangeLeads are the words before a period that say which of its bounds
// is meant: "since June" starts in June and runs on; "until March" ends
// with March. "from" ('f') starts a range when a period after "to" or
// "until" ends it ("from January to March"), and otherwise means the
// period itself ("invoices from March 2024"). The others ("in", "for",
// "during", "over") mean all of it.
var rangeLeads = map[string]byte{
	"since": 's', "starting": 's', "after": 's', "from": 'f',
	"until": 'e', "till": 'e', "through": 'e', "thru": 'e', "to": 'e', "before": 'e',
}

// periodLeads may stand before a month or a year alone ("in March", "for
// 2023"): without one, "may" is a verb and "2023" any number.
var periodLeads = setOf("in", "for", "during", "over", "of", "since", "from", "starting", "after", "until", "till",
	"through", "thru", "to", "before", "between")

// startWords and endWords name the two bounds of a range parameter pair.
var (
	startWords = setOf("start", "from", "since", "begin", "beginning", "after", "starting")
	endWords   = setOf("end", "to", "until", "through", "before", "ending")
)

// dayRange is a period read from the request: tokens [first, last], its
// first and last days, and which bound its lead word asks for ('s', 'e',
// 'f' for "from": rangeLeads; 0 for both).
type dayRange struct {
	first, last int
	from, to    time.Time
	bound       byte
}

// applyDateRanges is the rule date_ranges.
func (f *filler) applyDateRanges() {
	start, end := f.rangeBound(startWords), f.rangeBound(endWords)
	if start == nil && end == nil {
		return
	}
	today := f.clock()
	today = time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, today.Location())
	open := func(p *property) bool { return p != nil && f.missing(p) }
	var from *dayRange // a period after "from", until one after "to" ends it
	for i := 0; i < len(f.toks) && (open(start) || open(end)); i++ {
		r, ok := f.rangeAt(i, today)
		if !ok {
			continue
		}
		filled := false
		if r.bound != 'e' && open(start) {
			filled = f.try(start, boundValue(start, r.from)) || filled
		}
		if r.bound != 's' && r.bound != 'f' && open(end) {
			filled = f.try(end, boundValue(end, r.to)) || filled
		}
		if filled {
			f.useTokens(rangeIdx(r.first, r.last)...)
			if r.bound == 'f' {
				from = &r
			}
		}
		i = r.last
	}
	if from != nil && open(end) && f.try(end, boundValue(end, from.to)) {
		f.useTokens(rangeIdx(from.first, from.last)...)
	}
}

// rangeBound is the missing date parameter named for one bound of a range
// (start, startDate, from_date; end, until …), or nil. A date-time's
// bounds are an event's more often than a period's ("a meeting titled
// Plans for next year, tomorrow at noon"): moments fills those.
func (f *filler) rangeBound(words map[string]bool) *property {
	for _, p := range f.s.props {
		if f.missing(p) && p.date && p.format != "date-time" && fitsName(p, words) {
			return p
		}
	}
	return nil
}

// boundValue writes day as p takes it, in the layout its description asks
// for.
func boundValue(p *property, day time.Time) string {
	return inLayout(p, day.Format("2006-01-02"))
}

// rangeAt reads a period at token i, with the lead word before it.
func (f *filler) rangeAt(i int, today time.Time) (dayRange, bool) {
	if !f.free(i) {
		return dayRange{}, false
	}
	lead := ""
	if i > 0 && f.free(i-1) {
		lead = f.toks[i-1].word
	}
	r, ok := f.relativeRangeAt(i, today)
	if !ok {
		r, ok = f.namedRangeAt(i, today, periodLeads[lead])
	}
	if !ok {
		return dayRange{}, false
	}
	if b, ok := rangeLeads[lead]; ok {
		r.bound = b
		r.first--
	}
	return r, true
}

// relativeRangeAt reads "the last 90 days", "past 2 weeks", "last month",
// "this quarter", "next year", "year to date": with a count, the days from
// that long ago to today; without, the calendar period before, holding or
// after today.
func (f *filler) relativeRangeAt(i int, today time.Time) (dayRange, bool) {
	word := func(k int) string {
		if f.free(k) {
			return f.toks[k].word
		}
		return ""
	}
	k := i
	if word(k) == "the" {
		k++
	}
	which := word(k)
	if (which == "year" || which == "month") && word(k+1) == "to" && word(k+2) == "date" {
		from, _ := calendarPeriod(today, which, 0)
		return dayRange{first: i, last: k + 2, from: from, to: today}, true
	}
	switch which {
	case "last", "past", "previous", "this", "current", "next":
	default:
		return dayRange{}, false
	}
	n, counted := 0, false
	if v, ok := parseNumber(word(k + 1)); ok && v >= 1 && v == float64(int(v)) {
		n, counted = int(v), true
	} else if v, ok := numberWord(word(k + 1)); ok && v >= 1 {
		n, counted = v, true
	}
	u := k + 1
	if counted {
		u++
	}
	unit, ok := rangeUnits[word(u)]
	plural := strings.HasSuffix(word(u), "s")
	if !ok || counted && n > 1 && !plural || !counted && plural {
		return dayRange{}, false // "last days", "past 3 week": no period
	}
	r := dayRange{first: i, last: u}
	switch {
	case counted && (which == "last" || which == "past" || which == "previous"):
		r.from, r.to = shift(today, unit, -n), today
	case counted:
		return dayRange{}, false // "next 3 weeks": a span to come, not read here
	case which == "past":
		r.from, r.to = shift(today, unit, -1), today
	case which == "last" || which == "previous":
		r.from, r.to = calendarPeriod(today, unit, -1)
	case which == "next":
		r.from, r.to = calendarPeriod(today, unit, 1)
	default:
		r.from, r.to = calendarPeriod(today, unit, 0)
	}
	return r, true
}

// namedRangeAt reads a month ("March 2024", "in March"), a quarter ("Q3
// 2024", "in Q1") or a year ("in 2023"). A month or a quarter without its
// year is the latest that has begun; a month or a year alone needs a lead
// word (led). A month with a day after it is a date, not read here.
func (f *filler) namedRangeAt(i int, today time.Time, led bool) (dayRange, bool) {
	w := f.toks[i].word
	year, yearAt := 0, -1
	if f.free(i + 1) {
		if y, ok := yearOf(f.toks[i+1].word); ok {
			year, yearAt = y, i+1
		}
	}
	last := i
	if yearAt > 0 {
		last = yearAt
	}
	if m, ok := months[w]; ok && len(w) >= 3 {
		if _, _, _, _, isDate := f.monthDayAt(i); isDate || !led && yearAt < 0 {
			return dayRange{}, false
		}
		if year == 0 {
			year = today.Year()
			if m > int(today.Month()) {
				year--
			}
		}
		from := time.Date(year, time.Month(m), 1, 0, 0, 0, 0, today.Location())
		return dayRange{first: i, last: last, from: from, to: from.AddDate(0, 1, -1)}, true
	}
	if len(w) == 2 && w[0] == 'q' && w[1] >= '1' && w[1] <= '4' {
		q := int(w[1] - '0')
		if year == 0 {
			year = today.Year()
			if (q-1)*3+1 > int(today.Month()) {
				year--
			}
		}
		from := time.Date(year, time.Month((q-1)*3+1), 1, 0, 0, 0, 0, today.Location())
		return dayRange{first: i, last: last, from: from, to: from.AddDate(0, 3, -1)}, true
	}
	if y, ok := yearOf(w); ok && led {
		from := time.Date(y, 1, 1, 0, 0, 0, 0, today.Location())
		return dayRange{first: i, last: i, from: from, to: from.AddDate(1, 0, -1)}, true
	}
	return dayRange{}, false
}

// shift moves day by n units.
func shift(day time.Time, unit string, n int) time.Time {
	switch unit {
	case "day":
		return day.AddDate(0, 0, n)
	case "week":
		return day.AddDate(0, 0, 7*n)
	case "month":
		return day.AddDate(0, n, 0)
	case "quarter":
		return day.AddDate(0, 3*n, 0)
	}
	return day.AddDate(n, 0, 0)
}

// calendarPeriod is the calendar unit holding today, moved by n units
// (-1 the one before): its first and last days. Weeks start on Monday
// (ISO 8601).
func calendarPeriod(today time.Time, unit string, n int) (from, to time.Time) {
	y, m, d := today.Date()
	loc := today.Location()
	switch unit {
	case "day":
		from = time.Date(y, m, d+n, 0, 0, 0, 0, loc)
		return from, from
	case "week":
		back := (int(today.Weekday()) + 6) % 7 // days since Monday
		from = time.Date(y, m, d-back+7*n, 0, 0, 0, 0, loc)
		return from, from.AddDate(0, 0, 6)
	case "month":
		from = time.Date(y, m+time.Month(n), 1, 0, 0, 0, 0, loc)
		return from, from.AddDate(0, 1, -1)
	case "quarter":
		q0 := (int(m) - 1) / 3 * 3
		from = time.Date(y, time.Month(q0+1+3*n), 1, 0, 0, 0, 0, loc)
		return from, from.AddDate(0, 3, -1)
	}
	from = time.Date(y+n, 1, 1, 0, 0, 0, 0, loc)
	return from, from.AddDate(1, 0, -1)
}
