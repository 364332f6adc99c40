package resolve

import "strings"

// Closed word classes that answer a parameter by its name alone: a
// currency code for "currency", a sex for "gender", a direction for
// "direction". A word of the class anywhere in the intent fills the one
// missing parameter named for it.
var vocabularies = []struct {
	names map[string]bool
	words map[string]bool
	// upper: the word must be written in capitals (currency codes).
	upper bool
}{
	{setOf("currency", "currencies"), setOf("usd", "eur", "gbp", "jpy", "cny", "inr", "aud", "cad", "chf", "sek", "nok", "dkk",
		"brl", "mxn", "krw", "sgd", "hkd", "nzd", "zar", "rub", "try", "pln", "thb", "idr", "aed", "sar", "btc", "eth"), true},
	{setOf("gender", "sex"), setOf("male", "female", "nonbinary", "non-binary", "males", "females"), false},
	{setOf("difficulty", "proficiency", "expertise", "level"), setOf("beginner", "novice", "intermediate", "advanced",
		"expert", "easy", "medium", "hard", "difficult"), false},
	{setOf("frequency", "interval", "period", "timeframe", "periodicity", "granularity"), setOf("hourly", "daily", "weekly",
		"biweekly", "monthly", "quarterly", "yearly", "annually", "annual"), false},
	{setOf("direction", "heading"), setOf("forward", "forwards", "backward", "backwards", "left", "right", "up", "down",
		"north", "south", "east", "west", "clockwise", "counterclockwise", "anticlockwise"), false},
}

func (f *filler) applyVocabularies() {
	for _, v := range vocabularies {
		var target *property
		for _, p := range f.s.props {
			if f.missing(p) && stringProp(p) && fitsName(p, v.names) {
				if target != nil {
					target = nil
					break
				}
				target = p
			}
		}
		if target == nil {
			continue
		}
		for i, t := range f.toks {
			if t.used || !v.words[t.word] {
				continue
			}
			val := t.value
			if v.upper && val != strings.ToUpper(val) {
				continue
			}
			if !v.upper {
				// "in males" names the value male.
				val = strings.TrimSuffix(strings.ToLower(val), "s")
				if !v.words[val] {
					val = t.word
				}
			}
			if f.try(target, val) {
				f.useTokens(i)
				break
			}
		}
	}
}

// dropBlank treats a required parameter given as blank text or an empty
// list as not given: `query=""` asks for nothing.
func (f *filler) dropBlank() {
	for _, p := range f.s.props {
		if !p.required || !f.given[p.name] {
			continue
		}
		blank := false
		switch v := f.args[p.name].(type) {
		case string:
			blank = strings.TrimSpace(v) == ""
		case []any:
			blank = len(v) == 0
		}
		if blank {
			f.unset(p)
		}
	}
}

// periodUnits are the units of a relative period ("the last month").
var periodUnits = setOf("hour", "hours", "day", "days", "week", "weeks", "month", "months", "quarter", "quarters",
	"year", "years", "decade", "decades")

var periodStarts = setOf("last", "past", "previous", "next", "coming", "this", "current", "upcoming")

// periodPropNames name a parameter for a relative period (applyPeriods).
var periodPropNames = setOf("period", "timeframe", "range", "window", "span", "interval")

// applyPeriods fills a parameter named for a period ("time_period",
// "timeframe") from a relative period: "over the last month", "in the
// past 3 years" → "last month", "past 3 years".
func (f *filler) applyPeriods() {
	var target *property
	for _, p := range f.s.props {
		if f.missing(p) && stringProp(p) && fitsName(p, periodPropNames) {
			target = p
			break
		}
	}
	if target == nil {
		return
	}
	for i := range f.toks {
		if !f.free(i) || !periodStarts[f.toks[i].word] {
			continue
		}
		last := i + 1
		if f.free(last) {
			if _, ok := parseNumber(f.toks[last].word); ok {
				last++
			}
		}
		if !f.free(last) || !periodUnits[f.toks[last].word] {
			continue
		}
		if f.try(target, f.spanValue(i, last)) {
			f.useTokens(rangeIdx(i, last)...)
			return
		}
	}
}
