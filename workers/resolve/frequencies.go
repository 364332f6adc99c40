package resolve

import "strings"

// An adverb of frequency ("monthly prices", "weekly cohorts") asks for a
// time grain, which tools take as an enum whose members code it in their
// own way: "month", "1mo", "M", "P1M". The vocabularies rule writes the
// adverb into a free-text parameter as it is; an enum needs the member
// that codes the same length, or the call ran at the tool's default grain.

// frequencyAdverbs are the adverbs of frequency, with the grain each asks
// for.
var frequencyAdverbs = map[string]string{
	"hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month", "quarterly": "quarter",
	"yearly": "year", "annually": "year", "annual": "year",
}

// frequencyNames name, or end the name of, a parameter for a time grain
// (cohortGrain, bar_interval).
var frequencyNames = setOf("frequency", "interval", "period", "periodicity", "timeframe", "granularity", "grain",
	"bucket", "resolution")

// grainCodes are the ways enum members code a grain, in lower case: a
// word, an abbreviation, a count and a unit ("1wk"), ISO 8601 ("p1m").
// "m" and "1m" are minutes in some tools and months in others: only the
// capital M codes a month (memberGrain).
var grainCodes = map[string]string{
	"hour": "hour", "hours": "hour", "hourly": "hour", "h": "hour", "1h": "hour", "hr": "hour", "1hr": "hour",
	"60m": "hour", "60min": "hour", "pt1h": "hour",
	"day": "day", "days": "day", "daily": "day", "d": "day", "1d": "day", "1day": "day", "24h": "day", "p1d": "day",
	"week": "week", "weeks": "week", "weekly": "week", "w": "week", "1w": "week", "wk": "week", "1wk": "week",
	"7d": "week", "p1w": "week",
	"month": "month", "months": "month", "monthly": "month", "mo": "month", "1mo": "month", "mon": "month",
	"1mon": "month", "1month": "month", "p1m": "month",
	"quarter": "quarter", "quarters": "quarter", "quarterly": "quarter", "q": "quarter", "1q": "quarter",
	"3mo": "quarter", "p3m": "quarter",
	"year": "year", "years": "year", "yearly": "year", "annual": "year", "y": "year", "1y": "year", "yr": "year",
	"1yr": "year", "12mo": "year", "p1y": "year",
}

// memberGrain is the grain enum member m codes, or "".
func memberGrain(m string) string {
	if m == "M" || m == "1M" {
		return "month"
	}
	return grainCodes[strings.ToLower(m)]
}

// applyFrequencies is the rule frequencies: an adverb of frequency fills
// the one missing enum parameter named for a grain with the one member
// that codes the same grain. "daily/monthly active users" names a
// metric, not a grain.
func (f *filler) applyFrequencies() {
	target := f.soleMissingWhere(func(p *property) bool { return len(p.enum) > 0 && fitsName(p, frequencyNames) })
	if target == nil {
		return
	}
	for i := range f.toks {
		grain, ok := frequencyAdverbs[f.toks[i].word]
		if !f.free(i) || !ok || f.free(i+1) && f.toks[i+1].word == "active" {
			continue
		}
		if m := grainMember(target, grain); m != "" && f.try(target, m) {
			f.useTokens(i)
			return
		}
	}
}

// grainMember is the one member of p's enum that codes grain, or "".
func grainMember(p *property, grain string) string {
	found := ""
	for _, e := range p.enum {
		if m, ok := e.(string); ok && memberGrain(m) == grain {
			if found != "" {
				return ""
			}
			found = m
		}
	}
	return found
}
