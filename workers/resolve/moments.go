package resolve

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// now is the resolver's clock, which the moments a request writes relative
// to it ("tomorrow at 3pm", "in 2 hours") are read against, in the
// output's time zone (AgentOutput.TimeZone), else the worker's. The call's
// arguments show the offset it chose. Tests set it.
var now = time.Now

// clock is the time now in the zone the request's moments are read in.
func (f *filler) clock() time.Time {
	if f.zone != nil {
		return now().In(f.zone)
	}
	return now()
}

// A moment is a point in time a request writes: a day, a time of day, or
// both, in either order ("tomorrow at 3pm", "on Monday at 10am", "at noon
// on December 3", "2026-12-01 at 14:00"), or a span from now ("in 2
// hours").
//
// Read here, not with a date-parsing library: the two that extract dates
// from running text (github.com/olebedev/when, github.com/markusmobius/
// go-dateparser) were tried on requests like these and read "2026-12-01 at
// 14:00" as 12:01 today, "next Tuesday at 9" as Tuesday at the current
// hour, "on Monday at 10am" as a day in the following October and "we" as
// Wednesday.
type moment struct {
	first, last int
	// day is the day written, or the zero time when none is.
	day time.Time
	// hour and minute are the time of day written, when clock is set.
	hour, minute int
	clock        bool
	// dayFirst and dayEnd are the tokens of the day part, when one is
	// written; explicit says it was a date (2026-12-01, December 3), not a
	// day named from today (tomorrow, Monday).
	dayFirst, dayEnd int
	explicit         bool
	// weekday says the day was named by its weekday ("Monday").
	weekday bool
	// in is a span from now ("in 2 hours"), when relative is set.
	in       time.Duration
	relative bool
}

// at is the moment as a time, and whether it is one: a day alone is not
// (a date-time needs its time of day). A time alone is on the day written
// last before it, when there is one (lastDay).
func (m moment) at(ref, lastDay time.Time) (time.Time, bool) {
	if m.day.IsZero() {
		m.day = lastDay
	}
	switch {
	case m.relative:
		return ref.Add(m.in).Truncate(time.Minute), true
	case !m.clock:
		return time.Time{}, false
	case m.day.IsZero():
		// A time of day alone is its next occurrence.
		t := time.Date(ref.Year(), ref.Month(), ref.Day(), m.hour, m.minute, 0, 0, ref.Location())
		if t.Before(ref) {
			t = t.AddDate(0, 0, 1)
		}
		return t, true
	}
	return time.Date(m.day.Year(), m.day.Month(), m.day.Day(), m.hour, m.minute, 0, 0, ref.Location()), true
}

// lookBack are the words before a day that make it one gone by ("since
// Monday"); "from" and "after" also lead to days to come ("from Monday to
// Friday" of a booking), so they say nothing.
var lookBack = setOf("since")

var weekdays = map[string]time.Weekday{
	"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday,
	"thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday,
}

// weekdayShort are the usual abbreviations, read only after on, this or
// next: alone, "sat" and "sun" are words.
var weekdayShort = map[string]time.Weekday{
	"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "tues": time.Tuesday, "wed": time.Wednesday,
	"thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday, "fri": time.Friday, "sat": time.Saturday,
}

// clockWord: "3pm", "10:30am", "14:00", "9", "9:15".
var clockWord = regexp.MustCompile(`^(\d{1,2})(?::(\d{2}))?(am|pm|a\.m\.|p\.m\.)?$`)

// momentAt reads the moment starting at token i, if one does.
func (f *filler) momentAt(i int, ref time.Time) (moment, bool) {
	if m, ok := f.relativeAt(i); ok {
		return m, true
	}
	if m, ok := f.dayAt(i, ref); ok {
		if h, mi, last, ok := f.clockAt(m.last+1, true); ok {
			m.hour, m.minute, m.clock, m.last = h, mi, true, last
		}
		return m, true
	}
	if h, mi, last, ok := f.clockAt(i, false); ok {
		m := moment{first: i, last: last, hour: h, minute: mi, clock: true, dayFirst: -1, dayEnd: -1}
		if d, ok := f.dayAt(last+1, ref); ok {
			m.day, m.dayFirst, m.dayEnd, m.explicit, m.weekday, m.last = d.day, d.dayFirst, d.dayEnd, d.explicit, d.weekday, d.last
		}
		return m, true
	}
	return moment{}, false
}

// dayAt reads a day at token i: today, tomorrow, tonight, a weekday (on,
// this or next before it), an ISO date, or a month and a day (with or
// without a year; without, the next one to come).
func (f *filler) dayAt(i int, ref time.Time) (moment, bool) {
	if !f.free(i) {
		return moment{}, false
	}
	first := i
	w := f.toks[i].word
	cued, back := false, false
	if (w == "on" || w == "this" || w == "next" || w == "last") && f.free(i+1) {
		cued, back = true, w == "last"
		i++
		w = f.toks[i].word
		if (w == "this" || w == "next" || w == "last") && f.free(i+1) {
			back = back || w == "last"
			i++
			w = f.toks[i].word
		}
	}
	// A day a search starts from looks back: "since Monday" and "last
	// Friday" are the last ones, not the next.
	if first > 0 && lookBack[f.toks[first-1].word] {
		back = true
	}
	today := time.Date(ref.Year(), ref.Month(), ref.Day(), 0, 0, 0, 0, ref.Location())
	day := func(t time.Time, last int) (moment, bool) {
		return moment{first: first, last: last, day: t, dayFirst: first, dayEnd: last}, true
	}
	date := func(t time.Time, last int) (moment, bool) {
		m, ok := day(t, last)
		m.explicit = true
		return m, ok
	}
	switch w {
	case "today", "tonight":
		return day(today, i)
	case "tomorrow":
		return day(today.AddDate(0, 0, 1), i)
	case "yesterday":
		return day(today.AddDate(0, 0, -1), i)
	}
	wd, ok := weekdays[w]
	if !ok && cued {
		wd, ok = weekdayShort[w]
	}
	if ok {
		ahead := (int(wd) - int(today.Weekday()) + 7) % 7
		if ahead == 0 {
			ahead = 7 // "on Monday", said on a Monday, is the next one
		}
		if back {
			// The last one gone by: "last Friday", said on a Friday, is
			// a week ago.
			ahead = -((int(today.Weekday()) - int(wd) + 7) % 7)
			if ahead == 0 {
				ahead = -7
			}
		}
		m, ok := day(today.AddDate(0, 0, ahead), i)
		m.weekday = true
		return m, ok
	}
	if v, ok := isoDate(w); ok {
		t, err := time.ParseInLocation("2006-01-02", v, ref.Location())
		if err == nil {
			return date(t, i)
		}
	}
	if m, d, y, last, ok := f.monthDayAt(i); ok {
		if t, ok := nextDate(today, y, m, d); ok {
			return date(t, last)
		}
	}
	return moment{}, false
}

// nextDate is day d of month m in year y, or without a year (y 0) the
// next such day from today on.
func nextDate(today time.Time, y, m, d int) (time.Time, bool) {
	if y == 0 {
		y = today.Year()
		if t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, today.Location()); t.Before(today) {
			y++
		}
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, today.Location())
	if t.Day() != d {
		return time.Time{}, false // February 30
	}
	return t, true
}

// clockAt reads a time of day at token i: noon, midnight, "3pm", "3 pm",
// "10:30am", "14:00", or after "at" a bare hour ("at 9"). A bare hour from
// 1 to 6 is taken in the afternoon, from 7 to 12 as written, as one says
// "at 5" of a meeting. afterDay allows the bare hour without "at" only
// when a day was just written ("Monday 9").
func (f *filler) clockAt(i int, afterDay bool) (hour, minute, last int, ok bool) {
	if !f.free(i) {
		return 0, 0, 0, false
	}
	at := false
	if f.toks[i].word == "at" || f.toks[i].word == "@" {
		at = true
		i++
		if !f.free(i) {
			return 0, 0, 0, false
		}
	}
	switch f.toks[i].word {
	case "noon", "midday":
		return 12, 0, i, true
	case "midnight":
		return 0, 0, i, true
	}
	sm := clockWord.FindStringSubmatch(f.toks[i].word)
	if sm == nil {
		return 0, 0, 0, false
	}
	h, _ := strconv.Atoi(sm[1])
	mi := 0
	if sm[2] != "" {
		mi, _ = strconv.Atoi(sm[2])
	}
	last = i
	suffix := sm[3]
	if suffix == "" && f.free(i+1) {
		switch f.toks[i+1].word {
		case "am", "pm", "a.m", "p.m", "a.m.", "p.m.":
			suffix, last = f.toks[i+1].word, i+1
		case "o'clock", "oclock":
			last = i + 1
		}
	}
	switch {
	case suffix != "":
		if h < 1 || h > 12 {
			return 0, 0, 0, false
		}
		h %= 12
		if strings.HasPrefix(suffix, "p") {
			h += 12
		}
	case sm[2] != "":
		// 14:00: a 24-hour clock.
	case at || afterDay && last > i:
		if h < 1 || h > 12 {
			return 0, 0, 0, false
		}
		if h <= 6 {
			h += 12
		}
	default:
		return 0, 0, 0, false // a number alone is not a time
	}
	if h > 23 || mi > 59 {
		return 0, 0, 0, false
	}
	return h, mi, last, true
}

// relativeAt reads "in 2 hours", "in ten minutes", "in a week".
func (f *filler) relativeAt(i int) (moment, bool) {
	if !f.free(i) || f.toks[i].word != "in" || !f.free(i+1) || !f.free(i+2) {
		return moment{}, false
	}
	n, err := strconv.Atoi(f.toks[i+1].word)
	if err != nil {
		var ok bool
		if n, ok = numberWord(f.toks[i+1].word); !ok {
			if w := f.toks[i+1].word; w == "a" || w == "an" {
				n = 1
			} else {
				return moment{}, false
			}
		}
	}
	var unit time.Duration
	switch strings.TrimSuffix(f.toks[i+2].word, "s") {
	case "minute", "min":
		unit = time.Minute
	case "hour", "hr":
		unit = time.Hour
	case "day":
		unit = 24 * time.Hour
	case "week":
		unit = 7 * 24 * time.Hour
	default:
		return moment{}, false
	}
	if n <= 0 || n > 1000 {
		return moment{}, false
	}
	return moment{first: i, last: i + 2, in: time.Duration(n) * unit, relative: true, dayFirst: -1, dayEnd: -1}, true
}

// dateTimeProp: a string property that takes a date and a time: format
// date-time, or a description asking for RFC 3339 or ISO 8601 of a
// property named for a time (start, end, due, when …).
func dateTimeProp(p *property) bool {
	if (p.typ != "string" && p.typ != "") || len(p.enum) > 0 {
		return false
	}
	if p.format == "date-time" {
		return true
	}
	d := p.desc
	return (strings.Contains(d, "rfc 3339") || strings.Contains(d, "rfc3339") || strings.Contains(d, "iso 8601") || strings.Contains(d, "iso time")) &&
		fitsName(p, momentNames)
}

var momentNames = setOf("start", "end", "due", "when", "at", "time", "datetime", "timestamp", "deadline", "scheduled", "begin", "starts", "ends", "remind",
	"since", "after", "before", "until")

// boundNames are the names of date-time parameters that bound a search
// (recorded since, modified after): a day alone means its midnight there,
// where an event's start would need its hour.
var boundNames = setOf("since", "after", "before", "until")

// applyMoments fills date-time properties from the moments written, as
// RFC 3339 in the resolver's time zone: the one named just before the
// moment ("ends at 5pm"), else the first still missing, in declaration
// order ("from Monday at 9 to Monday at 11" → start, end); and date
// properties (format date, or named for a date) from a day named from
// today ("tomorrow", "next Friday"), written dates being the dates rule's.
// A day without a time of day for a tool that takes only date-times is
// reported, not guessed: "Monday" to an event's start would be midnight.
// A tool with neither kind of property is left to the other rules.
func (f *filler) applyMoments() {
	var dateTimes, bounds, dates, clocks []*property
	for _, p := range f.s.props {
		switch {
		case dateTimeProp(p) && fitsName(p, boundNames):
			bounds = append(bounds, p)
		case dateTimeProp(p):
			dateTimes = append(dateTimes, p)
		case p.format == "date" || isDateProp(p):
			dates = append(dates, p)
		case p.format == "time" || isTimeProp(p):
			clocks = append(clocks, p)
		}
	}
	if len(dateTimes) == 0 && len(bounds) == 0 && len(dates) == 0 && len(clocks) == 0 {
		return
	}
	ref := f.clock()
	var lastDay time.Time // a time alone after a day is that day's ("ends at 5")
	for i := 0; i < len(f.toks); i++ {
		m, ok := f.momentAt(i, ref)
		if !ok {
			continue
		}
		if !m.day.IsZero() {
			lastDay = m.day
		}
		if t, ok := m.bound(ref, lastDay); ok && f.fillMoment(bounds, m.first, t.Format(time.RFC3339)) {
			f.useTokens(rangeIdx(m.first, m.last)...)
			i = m.last
			continue
		}
		if t, ok := m.at(ref, lastDay); ok && f.fillMoment(dateTimes, m.first, t.Format(time.RFC3339)) {
			f.useTokens(rangeIdx(m.first, m.last)...)
			i = m.last
			continue
		}
		if !m.day.IsZero() && !m.explicit && f.fillMoment(dates, m.dayFirst, m.day.Format("2006-01-02")) {
			f.useTokens(rangeIdx(m.dayFirst, m.dayEnd)...)
			i = m.dayEnd
			continue
		}
		if m.clock && f.fillMoment(clocks, m.first, fmt.Sprintf("%02d:%02d", m.hour, m.minute)) {
			// A time of day ("an alarm for 7am"): its day, if one is
			// written, stays for what else takes it, or to be reported.
			first, last := m.first, m.last
			if m.dayFirst >= 0 && !m.day.IsZero() {
				if m.dayFirst == m.first {
					first = m.dayEnd + 1
				} else {
					last = m.dayFirst - 1
				}
			}
			f.useTokens(rangeIdx(first, last)...)
			i = last
			continue
		}
		if len(dateTimes) > 0 && !m.day.IsZero() && !m.clock {
			// A day for a start that needs its hour: said, not run at
			// midnight, and kept from the other rules ("Monday" is no
			// title).
			f.useTokens(rangeIdx(m.first, m.last)...)
			f.moments = append(f.moments, schemas.Unmapped{Text: f.spanValue(m.first, m.last), Parameter: dateTimes[0].name})
			i = m.last
		}
	}
}

// fillMoment gives v, a moment starting at token first, to the property
// of ps named right before it, else to the first of ps still missing.
func (f *filler) fillMoment(ps []*property, first int, v string) bool {
	for _, p := range ps {
		if !f.missing(p) {
			continue
		}
		end := first
		if end > 0 && (f.toks[end-1].word == "at" || f.toks[end-1].word == "on" || f.toks[end-1].word == "by") {
			end-- // "ends at 5pm", "due by Friday"
		}
		if idx, ok := f.nameEndsAt(p, end); ok && f.try(p, inLayout(p, v)) {
			f.useTokens(idx...)
			return true
		}
	}
	for _, p := range ps {
		if f.missing(p) && f.try(p, inLayout(p, v)) {
			return true
		}
	}
	return false
}

// bound is the moment as the bound of a search ("recorded since …"): a
// day alone from its midnight, and a weekday or a time of day alone the
// last one, not the next ("since Monday", "since 8am"); a span from now
// bounds nothing.
func (m moment) bound(ref, lastDay time.Time) (time.Time, bool) {
	if m.relative {
		return time.Time{}, false
	}
	t, ok := m.at(ref, lastDay)
	if !ok {
		if m.day.IsZero() {
			return time.Time{}, false
		}
		t = m.day
	}
	switch {
	case !t.After(ref):
	case m.weekday:
		t = t.AddDate(0, 0, -7)
	case m.day.IsZero() && lastDay.IsZero():
		t = t.AddDate(0, 0, -1)
	}
	return t, true
}
