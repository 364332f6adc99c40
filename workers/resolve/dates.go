package resolve

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// months maps month names and their usual abbreviations to 1–12.
var months = map[string]int{
	"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
	"may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
	"september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
	"december": 12, "dec": 12,
}

// dateSpan is a date or time written in the intent: tokens [first, last]
// and the value it stands for, a date as YYYY-MM-DD and a time as written.
type dateSpan struct {
	first, last int
	value       string
	time        bool
}

// findDates reads the dates and times among the unused tokens: "November
// 25, 2013", "25 November 2013", "2013-11-25", "11/25/2013", "09:16".
func (f *filler) findDates() []dateSpan {
	var out []dateSpan
	for i := 0; i < len(f.toks); i++ {
		if f.toks[i].used {
			continue
		}
		if d, ok := f.dateAt(i); ok {
			out = append(out, d)
			i = d.last
		}
	}
	return out
}

func (f *filler) dateAt(i int) (dateSpan, bool) {
	w := f.toks[i].word
	if v, ok := isoDate(w); ok {
		return dateSpan{first: i, last: i, value: v}, true
	}
	if isClock(w) {
		return dateSpan{first: i, last: i, value: w, time: true}, true
	}
	if m, d, y, last, ok := f.monthDayAt(i); ok {
		if y != 0 {
			return dateSpan{first: i, last: last, value: ymd(y, m, d)}, true
		}
		// A day of a month without its year ("on December 20", "3
		// March"), which the moments rule reads for a tool with a date
		// or a time to take: here a date no parameter takes (value ""),
		// to be reported, and its number no count. "may" and "march" in
		// lower case are as often a verb ("may 5 of us join").
		if w != "may" && w != "march" || capWord(f.toks[i].raw) {
			return dateSpan{first: i, last: last}, true
		}
	}
	return dateSpan{}, false
}

// monthDayAt reads a month and a day at token i, with the year when one
// follows: "November 25, 2013", "Dec 3", "25 November 2013", "3rd of
// December". y is 0 when no year is written.
func (f *filler) monthDayAt(i int) (m, d, y, last int, ok bool) {
	word := func(k int) string {
		if f.free(k) {
			return f.toks[k].word
		}
		return ""
	}
	year := func(k int) (int, int) {
		if yy, ok := yearOf(word(k)); ok {
			return yy, k
		}
		return 0, k - 1
	}
	w := word(i)
	if mm, isMonth := months[w]; isMonth && len(w) >= 3 {
		// Month D[, YYYY]
		if dd, ok := dayOf(word(i + 1)); ok {
			y, last = year(i + 2)
			return mm, dd, y, last, true
		}
		return 0, 0, 0, 0, false
	}
	// D [of] Month [YYYY]
	if dd, ok := dayOf(w); ok {
		k := i + 1
		if word(k) == "of" {
			k++
		}
		if mm, isMonth := months[word(k)]; isMonth && len(word(k)) >= 3 {
			y, last = year(k + 1)
			return mm, dd, y, last, true
		}
	}
	return 0, 0, 0, 0, false
}

// dayOf reads "25", "25th", "1st".
func dayOf(s string) (int, bool) {
	s = strings.TrimRight(s, ",")
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		s = strings.TrimSuffix(s, suf)
	}
	if s == "" || s[0] != '+' && s[0] != '-' && (s[0] < '0' || s[0] > '9') {
		return 0, false // no number, said without the error Atoi makes: asked of every word
	}
	d, err := strconv.Atoi(s)
	return d, err == nil && d >= 1 && d <= 31
}

func yearOf(s string) (int, bool) {
	if len(s) != 4 {
		return 0, false
	}
	y, err := strconv.Atoi(s)
	return y, err == nil && y >= 1000
}

func ymd(y, m, d int) string { return fmt.Sprintf("%04d-%02d-%02d", y, m, d) }

// isoDate reads YYYY-MM-DD, YYYY/MM/DD and MM/DD/YYYY (the American order,
// since the intents are English) into YYYY-MM-DD.
func isoDate(s string) (string, bool) {
	for _, sep := range []string{"-", "/"} {
		if strings.Count(s, sep) != 2 {
			continue // not split: asked of every word
		}
		parts := strings.Split(s, sep)
		n := make([]int, 3)
		for k, p := range parts {
			v, err := strconv.Atoi(p)
			if err != nil || p == "" {
				return "", false
			}
			n[k] = v
		}
		switch {
		case len(parts[0]) == 4 && validDate(n[0], n[1], n[2]):
			return ymd(n[0], n[1], n[2]), true
		case len(parts[2]) == 4 && sep == "/" && validDate(n[2], n[0], n[1]):
			return ymd(n[2], n[0], n[1]), true
		}
	}
	return "", false
}

func validDate(y, m, d int) bool { return y >= 1000 && m >= 1 && m <= 12 && d >= 1 && d <= 31 }

// isClock: 09:16, 9:16, 09:16:30.
func isClock(s string) bool {
	if n := strings.Count(s, ":"); n < 1 || n > 2 {
		return false // not split: asked of every word
	}
	parts := strings.Split(s, ":")
	for k, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || len(p) > 2 || len(p) < 1 || k > 0 && len(p) != 2 || v < 0 || k == 0 && v > 23 || k > 0 && v > 59 {
			return false
		}
	}
	return true
}

var (
	dateWords = setOf("date", "day", "birthday", "deadline", "dob", "since", "until")
	timeWords = setOf("time", "timeframe", "period", "hour", "when", "timestamp", "datetime", "schedule")
)

// isDateProp: a string property that holds a date, by its format, its
// name or a description that says so.
func isDateProp(p *property) bool {
	if (p.typ != "string" && p.typ != "") || len(p.enum) > 0 {
		return false
	}
	if p.format == "date" || fitsName(p, dateWords) {
		return true
	}
	d := p.desc
	return strings.Contains(d, "yyyy") || strings.Contains(d, " date ") || strings.HasPrefix(d, "date ") || strings.HasPrefix(d, "the date")
}

func isTimeProp(p *property) bool {
	return (p.typ == "string" || p.typ == "") && len(p.enum) == 0 && fitsName(p, timeWords)
}

// applyDates fills date and time properties from the dates written in the
// intent. A date right after a property's name goes to it ("a due date of
// October 6, 2008"); the others go, in the order written, to the date
// properties still missing, in declaration order ("from May 1, 2020 to
// June 1, 2020" → start_date, end_date). A time goes to a time property,
// or failing that to a date property (a time range "between 13:31 and
// 09:06"). The tokens of every date found are used, so its words are not
// read as a name later.
func (f *filler) applyDates() {
	spans := f.findDates()
	var rest []dateSpan
	for _, d := range spans {
		for k := d.first; k <= d.last; k++ {
			f.toks[k].used = true
		}
		if d.value != "" && !f.cuedDate(d) {
			rest = append(rest, d)
		}
	}
	for _, d := range rest {
		placed := false
		for _, fits := range f.dateTargets(d) {
			if placed = f.fillFirst(fits, d.value); placed {
				break
			}
		}
		for k := d.first; k <= d.last && !placed; k++ {
			f.toks[k].strayDate = true
		}
	}
	for _, d := range spans {
		for k := d.first; k <= d.last && d.value == ""; k++ {
			f.toks[k].strayDate = true // a day without its year
		}
	}
}

func (f *filler) dateTargets(d dateSpan) []func(*property) bool {
	if d.time {
		return []func(*property) bool{isTimeProp, dated}
	}
	return []func(*property) bool{dated}
}

// dated is property.date, as a predicate.
func dated(p *property) bool { return p.date }

// cuedDate gives d to the date or time property named just before it.
func (f *filler) cuedDate(d dateSpan) bool {
	end := d.first
	for skip := 0; skip <= 1 && end > 0; skip++ {
		for _, fits := range f.dateTargets(d) {
			for _, p := range f.s.props {
				if !f.missing(p) || !fits(p) {
					continue
				}
				if idx, ok := f.nameEndsAt(p, end); ok && f.try(p, inLayout(p, d.value)) {
					f.useTokens(idx...)
					return true
				}
			}
		}
		if !connectors[f.toks[end-1].word] && f.toks[end-1].word != "on" {
			break
		}
		end--
	}
	return false
}

// fillFirst gives v to the first missing property that fits.
func (f *filler) fillFirst(fits func(*property) bool, v string) bool {
	for _, p := range f.s.props {
		if f.missing(p) && fits(p) && f.try(p, inLayout(p, v)) {
			return true
		}
	}
	return false
}

// dateLayouts are the date formats a description may ask for, as written
// there and as Go layouts. Without one, a date is ISO 8601 (YYYY-MM-DD),
// what JSON Schema's "format": "date" means.
var dateLayouts = []struct{ written, layout string }{
	{"DD/MM/YYYY", "02/01/2006"}, {"MM/DD/YYYY", "01/02/2006"}, {"DD-MM-YYYY", "02-01-2006"},
	{"MM-DD-YYYY", "01-02-2006"}, {"YYYY/MM/DD", "2006/01/02"}, {"DD.MM.YYYY", "02.01.2006"},
}

// inLayout writes an ISO date v in the format p's description asks for.
func inLayout(p *property, v string) string {
	d := strings.ToUpper(p.description)
	for _, l := range dateLayouts {
		if strings.Contains(d, l.written) {
			if t, err := time.Parse("2006-01-02", v); err == nil {
				return t.Format(l.layout)
			}
		}
	}
	return v
}
