package resolve

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// applyCron fills a parameter that takes a cron expression (named cron,
// or described as one) from a recurrence written in words: "every Monday
// at 9am" → "0 9 * * 1", "weekdays at 8:30" → "30 8 * * 1-5", "every day
// at 7pm", "daily at noon", "every hour". A recurrence by day needs its
// time of day: "every Monday" alone says no hour, and is left to be
// asked for.
func (f *filler) applyCron() {
	target := f.firstMissing(func(p *property) bool { return len(p.enum) == 0 && p.cron })
	if target == nil {
		return
	}
	if i, r, last, ok := f.nextRecurrence(func(recurrence) bool { return true }); ok {
		expr := "0 * * * *" // hourly
		if !r.hourly {
			if f.free(last+1) && clockParts[f.toks[last+1].word] != "" && !endsClause(f.toks[last].raw) {
				last++ // "every Friday night at 12": its hour reads it
			}
			c, ok := f.clockAt(last+1, true)
			if !ok {
				return // a day without its hour: asked, not guessed
			}
			if c.overnight {
				// "every Friday night at 1" is early on Saturdays.
				r.days = slices.Clone(r.days) // not workWeek's own
				for k, d := range r.days {
					r.days[k] = (d + 1) % 7
				}
			}
			expr, last = fmt.Sprintf("%d %d * * %s", c.minute, c.hour, r.cronDays()), c.last
		}
		if f.try(target, expr) {
			f.useTokens(rangeIdx(i, last)...)
		}
	}
}

// firstMissing is the first string property, in declaration order, that
// the intent left unset and ok takes; nil when there is none.
func (f *filler) firstMissing(ok func(*property) bool) *property {
	for _, p := range f.s.props {
		if stringProp(p) && f.missing(p) && ok(p) {
			return p
		}
	}
	return nil
}

// nextRecurrence is the first recurrence written in free words that want
// takes: its first token, its reading and its last token.
func (f *filler) nextRecurrence(want func(recurrence) bool) (first int, r recurrence, last int, ok bool) {
	for i := 0; i < len(f.toks); i++ {
		if !f.free(i) {
			continue
		}
		if r, last, ok := f.recurrenceAt(i); ok && want(r) {
			return i, r, last, true
		}
	}
	return 0, recurrence{}, 0, false
}

// repeatNames are the words of parameters that take the days a thing
// repeats on.
var repeatNames = setOf("days", "repeat", "repeats", "recurrence", "recurring", "recur", "weekdays")

// applyRepeatDays fills a plain string parameter for the days a thing
// repeats on (named days, repeat, recurrence … or described as what it
// repeats or recurs on: "Days it repeats, e.g. weekdays") from a
// recurrence written in words, as its day words: "on weekdays" →
// "weekdays", "every Saturday" → "Saturday", "on Mondays and Wednesdays"
// → "Monday, Wednesday", "daily" or "every day" → "daily", "weekends".
// The reading is the cron rule's (recurrenceAt); unlike a cron
// expression, the days need no hour, which another rule reads ("at 6:30
// on weekdays" → time and days). "on Saturday" alone is one day, not a
// recurrence, and an hourly one names no days.
func (f *filler) applyRepeatDays() {
	target := f.firstMissing(func(p *property) bool { return !p.cron && (fitsName(p, repeatNames) || describesRepeat(p)) })
	if target == nil {
		return
	}
	if i, r, last, ok := f.nextRecurrence(func(r recurrence) bool { return !r.hourly }); ok {
		first := i
		if f.free(i-1) && f.toks[i-1].word == "on" && !endsClause(f.toks[i-1].raw) {
			first = i - 1 // "on weekdays"
		}
		if f.try(target, r.words()) {
			f.useTokens(rangeIdx(first, last)...)
			f.repeatDays = r.days
		}
	}
}

// cronParam: p takes a cron expression, by its name or its description.
func cronParam(p *property) bool {
	return fitsName(p, setOf("cron")) || strings.Contains(p.desc, "cron")
}

// describesRepeat: p's description says it is what a thing repeats or
// recurs on.
func describesRepeat(p *property) bool {
	d := p.desc
	return strings.Contains(d, "repeat") || strings.Contains(d, "recur")
}

// recurrence is a recurrence by day read from words: the days of the week
// it falls on, in the order written (none: every day), or every hour.
type recurrence struct {
	days   []time.Weekday
	hourly bool
}

var (
	workWeek = []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday}
	weekend  = []time.Weekday{time.Saturday, time.Sunday}
)

// cronDays is the recurrence's day-of-week field: "*", "1-5", "0,6", "1,3".
func (r recurrence) cronDays() string {
	if len(r.days) == 0 {
		return "*"
	}
	days := slices.Clone(r.days)
	slices.Sort(days)
	days = slices.Compact(days)
	if slices.Equal(days, workWeek) {
		return "1-5"
	}
	out := make([]string, len(days))
	for k, d := range days {
		out[k] = strconv.Itoa(int(d))
	}
	return strings.Join(out, ",")
}

// words writes the recurrence's days as a request does: "daily",
// "weekdays", "weekends", "Saturday", "Monday, Wednesday".
func (r recurrence) words() string {
	switch {
	case len(r.days) == 0:
		return "daily"
	case r.cronDays() == "1-5":
		return "weekdays"
	case r.cronDays() == "0,6":
		return "weekends"
	}
	out := make([]string, len(r.days))
	for k, d := range r.days {
		out[k] = d.String()
	}
	return strings.Join(out, ", ")
}

// recurrenceAt reads a recurrence by day at token i, and its last token:
// "daily", "everyday", "hourly", "weekdays", "weekends", "every day",
// "every weekday", "every Monday", "Mondays" (a plural weekday recurs),
// and a list of weekdays after one ("every Monday and Wednesday",
// "Tuesdays, Thursdays and Saturdays").
func (f *filler) recurrenceAt(i int) (r recurrence, last int, ok bool) {
	w := f.toks[i].word
	switch w {
	case "daily", "everyday":
		return recurrence{}, i, true
	case "hourly":
		return recurrence{hourly: true}, i, true
	case "weekdays":
		return recurrence{days: workWeek}, i, true
	case "weekends":
		return recurrence{days: weekend}, i, true
	case "every", "each":
		if !f.free(i + 1) {
			return recurrence{}, 0, false
		}
		switch n := f.toks[i+1].word; n {
		case "day", "morning", "evening", "night":
			return recurrence{}, i + 1, true
		case "weekday":
			return recurrence{days: workWeek}, i + 1, true
		case "weekend":
			return recurrence{days: weekend}, i + 1, true
		case "hour":
			return recurrence{hourly: true}, i + 1, true
		default:
			if wd, ok := weekdays[strings.TrimSuffix(n, "s")]; ok {
				return f.moreWeekdays(recurrence{days: []time.Weekday{wd}}, i+1, true)
			}
		}
		return recurrence{}, 0, false
	}
	if base, plural := strings.CutSuffix(w, "s"); plural {
		if wd, ok := weekdays[base]; ok {
			return f.moreWeekdays(recurrence{days: []time.Weekday{wd}}, i, false)
		}
	}
	return recurrence{}, 0, false
}

// moreWeekdays reads the weekdays listed after the one at token last,
// parted by commas or "and": plural ones, or any after "every" ("every
// Monday and Wednesday").
func (f *filler) moreWeekdays(r recurrence, last int, every bool) (recurrence, int, bool) {
	for {
		raw := f.toks[last].raw
		comma := strings.HasSuffix(raw, ",")
		if !comma && endsClause(raw) {
			return r, last, true
		}
		j := last + 1
		if f.free(j) && f.toks[j].word == "and" {
			j++
		} else if !comma {
			return r, last, true
		}
		if !f.free(j) {
			return r, last, true
		}
		w := f.toks[j].word
		base, plural := strings.CutSuffix(w, "s")
		wd, ok := weekdays[base]
		if !ok || !plural {
			if wd, ok = weekdays[w]; !ok || !every {
				return r, last, true
			}
		}
		r.days = append(r.days, wd)
		last = j
	}
}
