package resolve

import (
	"fmt"
	"strconv"
	"strings"
)

// applyCron fills a parameter that takes a cron expression (named cron,
// or described as one) from a recurrence written in words: "every Monday
// at 9am" → "0 9 * * 1", "weekdays at 8:30" → "30 8 * * 1-5", "every day
// at 7pm", "daily at noon", "every hour". A recurrence by day needs its
// time of day: "every Monday" alone says no hour, and is left to be
// asked for.
func (f *filler) applyCron() {
	var target *property
	for _, p := range f.s.props {
		if f.missing(p) && stringProp(p) && len(p.enum) == 0 &&
			(fitsName(p, setOf("cron")) || strings.Contains(strings.ToLower(p.description), "cron")) {
			target = p
			break
		}
	}
	if target == nil {
		return
	}
	for i := 0; i < len(f.toks); i++ {
		if !f.free(i) {
			continue
		}
		dow, last, ok := f.recurrenceAt(i)
		if !ok {
			continue
		}
		expr := "0 * * * *" // hourly
		if dow != "hourly" {
			h, m, clockLast, ok := f.clockAt(last+1, true)
			if !ok {
				return // a day without its hour: asked, not guessed
			}
			expr, last = fmt.Sprintf("%d %d * * %s", m, h, dow), clockLast
		}
		if f.try(target, expr) {
			f.useTokens(rangeIdx(i, last)...)
		}
		return
	}
}

// recurrenceAt reads a recurrence by day at token i: its cron day-of-week
// field ("*", "1-5", "0,6", "1") or "hourly", and its last token.
func (f *filler) recurrenceAt(i int) (dow string, last int, ok bool) {
	w := f.toks[i].word
	switch w {
	case "daily":
		return "*", i, true
	case "hourly":
		return "hourly", i, true
	case "weekdays":
		return "1-5", i, true
	case "every", "each":
		if !f.free(i + 1) {
			return "", 0, false
		}
		switch n := f.toks[i+1].word; n {
		case "day", "morning", "evening", "night":
			return "*", i + 1, true
		case "weekday":
			return "1-5", i + 1, true
		case "weekend":
			return "0,6", i + 1, true
		case "hour":
			return "hourly", i + 1, true
		default:
			if wd, ok := weekdays[strings.TrimSuffix(n, "s")]; ok {
				return strconv.Itoa(int(wd)), i + 1, true
			}
		}
		return "", 0, false
	}
	// "Mondays at 9": a plural weekday recurs.
	if base, plural := strings.CutSuffix(w, "s"); plural {
		if wd, ok := weekdays[base]; ok {
			return strconv.Itoa(int(wd)), i, true
		}
	}
	return "", 0, false
}
