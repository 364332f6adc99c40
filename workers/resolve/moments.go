package resolve

import (
	"fmt"
	"regexp"
	"slices"
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
	// overnight says the time of day is in the night after the day
	// written ("tonight at 12").
	overnight bool
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
	day := m.day
	if m.overnight {
		day = day.AddDate(0, 0, 1)
	}
	return time.Date(day.Year(), day.Month(), day.Day(), m.hour, m.minute, 0, 0, ref.Location()), true
}

// onRepeatDay is t, or the same time of day on the first day after it
// that is one of days (the weekdays of a recurrence); t itself when days
// is empty (every day).
func onRepeatDay(t time.Time, days []time.Weekday) time.Time {
	for range 7 {
		if len(days) == 0 || slices.Contains(days, t.Weekday()) {
			break
		}
		t = t.AddDate(0, 0, 1)
	}
	return t
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
		if c, ok := f.clockAt(m.last+1, true); ok {
			m.hour, m.minute, m.clock, m.overnight, m.last = c.hour, c.minute, true, c.overnight, c.last
		}
		return m, true
	}
	if c, ok := f.clockAt(i, false); ok {
		m := moment{first: i, last: c.last, hour: c.hour, minute: c.minute, clock: true, overnight: c.overnight, dayFirst: -1, dayEnd: -1}
		if d, ok := f.dayAt(c.last+1, ref); ok {
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
		// The part of the day after it is the day's: "tomorrow
		// morning", "Monday evening" (its hour reads it).
		if !endsClause(f.toks[last].raw) && f.free(last+1) {
			if w := f.toks[last+1].word; clockParts[w] != "" && w != "tonight" && !strings.HasSuffix(w, "s") {
				last++
			}
		}
		return moment{first: first, last: last, day: t, dayFirst: first, dayEnd: last}, true
	}
	date := func(t time.Time, last int) (moment, bool) {
		m, ok := day(t, last)
		m.explicit = true
		return m, ok
	}
	// Two days from today: "the day after tomorrow", "the day before
	// yesterday" (read as tomorrow, the day would be silently wrong).
	if k := i; !cued && (w == "the" || w == "day") {
		if w == "the" && f.free(k+1) && f.toks[k+1].word == "day" {
			k++
		}
		if f.toks[k].word == "day" && f.free(k+1) && f.free(k+2) {
			switch f.toks[k+1].word + " " + f.toks[k+2].word {
			case "after tomorrow":
				return day(today.AddDate(0, 0, 2), k+2)
			case "before yesterday":
				return day(today.AddDate(0, 0, -2), k+2)
			}
		}
	}
	if base, ok := strings.CutSuffix(w, "'s"); ok && relativeDays[base] {
		w = base // "at yesterday's rate", "Monday's standup": the day
	}
	switch w {
	case "today", "tonight":
		return day(today, i)
	case "morning", "afternoon", "evening", "night":
		if f.toks[first].word == "this" && i == first+1 {
			return day(today, i) // "this evening"
		}
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

// clockRead is a time of day read from words: its hour and minute, the
// last token read, and whether it falls in the night after the day
// written ("tonight at 12", "at 1 at night" of a Friday: Saturday).
type clockRead struct {
	hour, minute, last int
	overnight          bool
}

// clockAt reads a time of day at token i: noon, midnight, "3pm", "3 pm",
// "10:30am", "14:00", "quarter to six", "half past 9", or after "at" a
// bare hour ("at 9", "at half 9"). A bare hour (1 to 12, no am or pm) is
// in the half of the day the request says around it (dayPartAround): "at
// 8 in the evening", "tonight at 7", "every evening at 8", "tomorrow
// morning at 6", "at 12 at night", "wake me at 6"; an hour that part of
// the day does not have ("at 2 in the evening") is not read, to be
// reported. With no part of the day said, a bare hour from 1 to 6 is taken
// in the afternoon, from 7 to 12 as written, as one says "at 5" of a
// meeting, and an hour with its minutes (8:30) as written. An am or pm
// written wins over the part of the day. afterDay allows the bare hour
// without "at" only when a day was just written ("Monday 9 o'clock"); a
// bare hour followed by its part of the day needs neither ("an alarm for
// 7 in the evening").
func (f *filler) clockAt(i int, afterDay bool) (clockRead, bool) {
	if !f.free(i) {
		return clockRead{}, false
	}
	first := i
	at := false
	if f.toks[i].word == "for" {
		return f.alarmHourAt(i)
	}
	if f.toks[i].word == "at" || f.toks[i].word == "@" {
		at = true
		i++
		if !f.free(i) {
			return clockRead{}, false
		}
	}
	switch f.toks[i].word {
	case "noon", "midday":
		return clockRead{hour: 12, last: i}, true
	case "midnight":
		half, _, _ := f.dayPartAround(first, i)
		return clockRead{last: i, overnight: half == "night"}, true
	}
	if h, mi, last, ok := f.clockPhraseAt(i, at); ok {
		return f.halfOfDay(first, last, h, mi, at)
	}
	sm := clockWord.FindStringSubmatch(f.toks[i].word)
	if sm == nil {
		if h, ok := numberWord(f.toks[i].word); ok && h >= 1 && h <= 12 && f.free(i+1) {
			// "at six o'clock", "six in the evening", "seven pm"
			switch f.toks[i+1].word {
			case "o'clock", "oclock":
				if !at && !afterDay {
					return clockRead{}, false
				}
				return f.halfOfDay(first, i+1, h, 0, true)
			case "am", "pm", "a.m", "p.m", "a.m.", "p.m.":
				h %= 12
				if strings.HasPrefix(f.toks[i+1].word, "p") {
					h += 12
				}
				return clockRead{hour: h, last: i + 1}, true
			}
			if half, _, adjacent := f.dayPartAround(first, i); adjacent && half != "" {
				return f.halfOfDay(first, i, h, 0, false)
			}
		}
		return clockRead{}, false
	}
	h, _ := strconv.Atoi(sm[1])
	mi := 0
	if sm[2] != "" {
		mi, _ = strconv.Atoi(sm[2])
	}
	last := i
	suffix := sm[3]
	oclock := false
	if suffix == "" && f.free(i+1) {
		switch f.toks[i+1].word {
		case "am", "pm", "a.m", "p.m", "a.m.", "p.m.":
			suffix, last = f.toks[i+1].word, i+1
		case "o'clock", "oclock":
			last, oclock = i+1, true
		}
	}
	switch {
	case suffix != "":
		if h < 1 || h > 12 {
			return clockRead{}, false
		}
		h %= 12
		if strings.HasPrefix(suffix, "p") {
			h += 12
		}
	case sm[2] != "" && (h == 0 || h > 12 || strings.HasPrefix(sm[1], "0")):
		// 14:00, 08:30: a 24-hour clock.
	case sm[2] != "":
		// 8:30: as written, unless a part of the day is said.
		return f.halfOfDay(first, last, h, mi, false)
	case at || afterDay && oclock:
		return f.halfOfDay(first, last, h, mi, true)
	default:
		// A number alone is not a time, unless its part of the day
		// follows it ("7 in the evening").
		if half, _, adjacent := f.dayPartAround(first, last); adjacent && half != "" && h >= 1 && h <= 12 {
			return f.halfOfDay(first, last, h, mi, false)
		}
		return clockRead{}, false
	}
	if h > 23 || mi > 59 {
		return clockRead{}, false
	}
	return clockRead{hour: h, minute: mi, last: last}, true
}

// alarmTools are the words of a tool's name that say it sets a time to
// ring or wake at, where "for" and a bare hour is a clock time ("an alarm
// for 8"): elsewhere "for 8" is a count ("a table for 8") or, for a timer,
// a length.
var alarmTools = setOf("alarm", "alarms", "wake", "wakeup", "wakes")

// afterAlarmHour are the words that may follow the bare hour of "an alarm
// for 7": a day, a part of the day or the rest of the request, never a
// unit or a noun the number counts.
var afterAlarmHour = setOf("tomorrow", "today", "tonight", "o'clock", "oclock", "every", "each", "on", "this", "next",
	"in", "at", "please", "and", "then", "daily", "weekdays", "weekends", "sharp", "so", "to", "with")

// alarmHourAt reads "for" and a bare hour at token i as a clock time, on
// a tool named for alarms or waking only: "set an alarm for 8", "alarm
// for 7 tomorrow", "wake-up for 6 on weekdays". The hour is as written
// (a wake-up is in the morning) unless a part of the day is said ("for 9
// tonight"); an hour with minutes or am/pm is read without the "for".
func (f *filler) alarmHourAt(i int) (clockRead, bool) {
	k := i + 1
	alarm := false
	for w := range f.tool {
		if alarmTools[w] {
			alarm = true
			break
		}
	}
	if !alarm || !f.free(k) || endsClause(f.toks[i].raw) {
		return clockRead{}, false
	}
	w := f.toks[k].word
	h, err := strconv.Atoi(w)
	if err != nil || len(w) > 2 {
		var ok bool
		if h, ok = numberWord(w); !ok {
			return clockRead{}, false
		}
	}
	if h < 0 || h > 23 {
		return clockRead{}, false
	}
	if k+1 < len(f.toks) && !endsClause(f.toks[k].raw) {
		next := f.toks[k+1].word
		_, day := weekdays[next]
		if !afterAlarmHour[next] && clockParts[next] == "" && !day {
			return clockRead{}, false
		}
	}
	if h == 0 || h > 12 {
		return clockRead{hour: h, last: k}, true
	}
	return f.halfOfDay(i, k, h, 0, false)
}

// halfOfDay places a bare hour h (1 to 12, no am or pm) read from tokens
// first to last in the half of the day the request says around it, and
// reads the part of the day written right after it ("in the evening", "at
// night") with it. With none said, afternoon says whether an hour from 1
// to 6 is taken in the afternoon ("at 5"); else the hour stays as written.
func (f *filler) halfOfDay(first, last, h, mi int, afternoon bool) (clockRead, bool) {
	if h < 1 || h > 12 || mi > 59 {
		return clockRead{}, false
	}
	half, end, _ := f.dayPartAround(first, last)
	c := clockRead{hour: h, minute: mi, last: max(last, end)}
	switch half {
	case "morning":
		if h == 12 {
			return clockRead{}, false // noon or midnight: asked, not guessed
		}
	case "afternoon":
		if h > 6 && h < 12 {
			return clockRead{}, false
		}
		if h < 12 {
			c.hour += 12
		}
	case "evening":
		if h < 4 || h == 12 {
			return clockRead{}, false
		}
		c.hour += 12
	case "night":
		switch {
		case h >= 7 && h <= 11:
			c.hour += 12
		case h == 12:
			c.hour, c.overnight = 0, true
		case h <= 4:
			c.overnight = true
		default:
			return clockRead{}, false
		}
	default:
		if afternoon && h <= 6 {
			c.hour += 12
		}
	}
	return c, true
}

// dayParts of the clock: the words that say which half of the day an
// hour is in, by the part they name.
var clockParts = map[string]string{
	"morning": "morning", "mornings": "morning", "afternoon": "afternoon", "afternoons": "afternoon",
	"evening": "evening", "evenings": "evening", "night": "night", "nights": "night", "tonight": "night",
}

// partSkips are the words between a time of day and the part of the day
// that still say it ("at 6 tomorrow morning", "at 8 on Friday evening",
// "at 7 every evening").
var partSkips = setOf("on", "this", "next", "every", "each", "tomorrow", "today")

// wakeWords say a time of day is one to get up at: "wake me at 6", "get
// me up at quarter to six" are in the morning.
var wakeWords = setOf("wake", "wakes", "waking", "woken", "wake-up", "wakeup")

// dayPartAround is the part of the day the request says for the time of
// day at tokens first to last (morning, afternoon, evening or night, or
// "" for none): right after it ("at 9 in the evening", "at 12 at night",
// "at 8 tonight", "at 6 tomorrow morning"), right before it ("tonight at
// 7", "every evening at 8", "tomorrow morning at 6"), or, for the morning,
// a word of waking earlier in its clause ("wake me up at 6"). end is the
// last token of a part written as a phrase of its own right after the
// time ("in the evening", "at night"), which the time's reading takes,
// else last; adjacent says the part follows the time at once.
func (f *filler) dayPartAround(first, last int) (half string, end int, adjacent bool) {
	end = last
	// After: "in the evening", "at night", "tonight", "this evening",
	// "tomorrow morning", "on Friday evening".
	if !endsClause(f.toks[last].raw) {
		j := last + 1
		switch {
		case j+2 < len(f.toks) && f.toks[j].word == "in" && f.toks[j+1].word == "the" && clockParts[f.toks[j+2].word] != "" && f.free(j) && f.free(j+1) && f.free(j+2):
			return clockParts[f.toks[j+2].word], j + 2, true
		case j+1 < len(f.toks) && f.toks[j].word == "at" && f.toks[j+1].word == "night" && f.free(j) && f.free(j+1):
			return "night", j + 1, true
		}
		for k := j; k < len(f.toks) && k < j+4; k++ {
			w := f.toks[k].word
			if p := clockParts[w]; p != "" {
				return p, last, false
			}
			_, day := weekdays[strings.TrimSuffix(w, "s")]
			if !partSkips[w] && !day || endsClause(f.toks[k].raw) {
				break
			}
		}
	}
	// Before: the word just before the time.
	if first > 0 && !endsClause(f.toks[first-1].raw) {
		if p := clockParts[f.toks[first-1].word]; p != "" {
			return p, last, false
		}
	}
	// A word of waking earlier in the clause.
	for k := first - 1; k >= 0 && k >= first-8; k-- {
		if endsClause(f.toks[k].raw) {
			break
		}
		w := f.toks[k].word
		if wakeWords[w] || w == "up" && k >= 2 && f.toks[k-2].word == "get" {
			return "morning", last, false
		}
	}
	return "", last, false
}

// clockPhraseAt reads a time of day written in words at token i: "quarter
// past 7", "quarter to six", "half past 9", "20 minutes past 8", "ten to
// seven" — and after "at" the British "half 9" (9:30). It returns the hour
// as said, 1 to 12, and the minutes.
func (f *filler) clockPhraseAt(i int, at bool) (hour, minute, last int, ok bool) {
	hourAt := func(k int) (int, bool) {
		if !f.free(k) {
			return 0, false
		}
		w := f.toks[k].word
		h, err := strconv.Atoi(w)
		if err != nil {
			var ok bool
			if h, ok = numberWord(w); !ok {
				return 0, false
			}
		}
		return h, h >= 1 && h <= 12
	}
	if f.free(i) && f.toks[i].word == "a" && f.free(i+1) && f.toks[i+1].word == "quarter" {
		i++ // "a quarter past 7"
	}
	if !f.free(i) || !f.free(i+1) || endsClause(f.toks[i].raw) {
		return 0, 0, 0, false
	}
	w, next := f.toks[i].word, i+1
	mins := 0
	switch w {
	case "quarter":
		mins = 15
	case "half":
		mins = 30
		if at {
			if h, ok := hourAt(i + 1); ok {
				return h, 30, i + 1, true // "at half 9"
			}
		}
	default:
		// "ten past seven", "20 minutes to 8"; not "3 to 5" or "ten to
		// twelve", a range.
		n, err := strconv.Atoi(w)
		digits := err == nil
		if !digits {
			var ok bool
			if n, ok = numberWord(w); !ok {
				return 0, 0, 0, false
			}
		}
		if n < 1 || n > 29 {
			return 0, 0, 0, false
		}
		mins = n
		named := false
		if u := f.toks[next].word; u == "minutes" || u == "minute" || u == "mins" {
			next, named = next+1, true
		}
		if !named && (n%5 != 0 || f.toks[next].word != "past") {
			return 0, 0, 0, false
		}
	}
	if !f.free(next) || endsClause(f.toks[next].raw) {
		return 0, 0, 0, false
	}
	to := false
	switch f.toks[next].word {
	case "past":
	case "after":
		if w == "half" {
			return 0, 0, 0, false
		}
	case "to", "till", "til", "before", "of":
		to = true
		if mins == 30 {
			return 0, 0, 0, false // "half to 9" says nothing
		}
	default:
		return 0, 0, 0, false
	}
	h, ok := hourAt(next + 1)
	if !ok {
		return 0, 0, 0, false
	}
	if to {
		h--
		if h == 0 {
			h = 12
		}
		return h, 60 - mins, next + 1, true
	}
	return h, mins, next + 1, true
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
// date-time, a description that says so ("Date and time of the
// reminder", "a datetime"), whatever the property's name, or a
// description asking for RFC 3339 or ISO 8601 of a property named for a
// time (start, end, due, when …). Without it, a property named "date"
// would get only the day of "tomorrow at 11am", its time left behind.
func dateTimeProp(p *property) bool {
	if (p.typ != "string" && p.typ != "") || len(p.enum) > 0 {
		return false
	}
	if p.format == "date-time" {
		return true
	}
	d := p.desc
	for _, w := range dateTimeDescs {
		if strings.Contains(d, w) {
			return true
		}
	}
	return (strings.Contains(d, "rfc 3339") || strings.Contains(d, "rfc3339") || strings.Contains(d, "iso 8601") || strings.Contains(d, "iso time")) &&
		fitsName(p, momentNames)
}

// dateTimeDescs are the words of a description that asks for a date and
// a time together.
var dateTimeDescs = []string{"date and time", "date & time", "date/time", "date-time", "datetime"}

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
	var dateTimes, bounds, dates, clocks, whens []*property
	for _, p := range f.s.props {
		switch {
		case p.dateTime && fitsName(p, boundNames):
			bounds = append(bounds, p)
		case p.dateTime:
			dateTimes = append(dateTimes, p)
		case p.date:
			dates = append(dates, p)
		case p.format == "time" || isTimeProp(p):
			clocks = append(clocks, p)
			if !p.clock {
				whens = append(whens, p)
			}
		}
	}
	if len(dateTimes) == 0 && len(bounds) == 0 && len(dates) == 0 && len(clocks) == 0 {
		return
	}
	ref := f.clock()
	var lastDay time.Time // a time alone after a day is that day's ("ends at 5")
	at := func(m moment) (time.Time, bool) {
		t, ok := m.at(ref, lastDay)
		if ok && m.day.IsZero() && lastDay.IsZero() {
			t = onRepeatDay(t, f.repeatDays) // "every Monday at 9": next Monday's 9
		}
		return t, ok
	}
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
		if t, ok := at(m); ok && f.fillMoment(dateTimes, m.first, t.Format(time.RFC3339)) {
			f.useTokens(rangeIdx(m.first, m.last)...)
			i = m.last
			continue
		}
		if !m.day.IsZero() && !m.explicit && f.fillMoment(dates, m.dayFirst, m.day.Format("2006-01-02")) {
			f.useTokens(rangeIdx(m.dayFirst, m.dayEnd)...)
			i = m.dayEnd
			continue
		}
		if m.clock && !m.day.IsZero() && len(dates) == 0 {
			// A time with its day ("at 6am tomorrow") for a "when" that is
			// no clock time, and nothing else to take the day: the whole
			// moment, not the hour without its day.
			if t, ok := at(m); ok && f.fillMoment(whens, m.first, t.Format(time.RFC3339)) {
				f.useTokens(rangeIdx(m.first, m.last)...)
				i = m.last
				continue
			}
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

// clockOnly: p takes a time of day and nothing more: formatted as a time,
// or described as a clock time, a time of day, or by one ("e.g. 06:30",
// "HH:MM"). A "Pickup time" or a "when" is not: it takes the day too.
func clockOnly(p *property) bool {
	return p.format == "time" || strings.Contains(p.desc, "clock") || strings.Contains(p.desc, "time of day") ||
		strings.Contains(p.desc, "hh:mm") || clockExample.MatchString(p.desc)
}

// clockExample is a time of day written in a description ("06:30").
var clockExample = regexp.MustCompile(`\b\d{1,2}:\d{2}\b`)

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
