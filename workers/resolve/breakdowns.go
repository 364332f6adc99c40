package resolve

import "strings"

// Breakdowns: "signups by acquisition channel", "revenue broken down by
// country and plan" name the dimensions a metric is split by.

// breakdownNames name a parameter for the dimensions a result is split
// by (group_by, groupBy, dimensions, breakdown, split_by, segment).
var breakdownNames = setOf("group", "groupby", "grouping", "dimension", "dimensions", "breakdown", "split", "segment", "segments")

// breakdownProp: p takes the dimensions to split by: named for them, or
// described as what to group or break down by.
func breakdownProp(p *property) bool {
	isText := stringProp(p) || stringList(p)
	if !isText || isIDProp(p) || p.date {
		return false
	}
	return fitsName(p, breakdownNames) || strings.Contains(p.desc, "group by") || strings.Contains(p.desc, "grouped by") ||
		strings.Contains(p.desc, "break") && strings.Contains(p.desc, "down by")
}

// grainWords are the time grains "by" may name ("by week"): they go to a
// grain parameter, never to the dimensions.
var grainWords = map[string]string{"hour": "hour", "day": "day", "date": "day", "week": "week", "month": "month",
	"quarter": "quarter", "year": "year", "hours": "hour", "days": "day", "weeks": "week", "months": "month",
	"quarters": "quarter", "years": "year"}

// grainNames name a parameter for a time grain.
var grainNames = setOf("grain", "granularity", "interval", "bucket", "resolution")

// orderWords before "by" say the words after it are an order, not a
// dimension: "sorted by revenue".
var orderWords = setOf("sort", "sorted", "sorting", "order", "ordered", "ordering", "rank", "ranked", "ranking",
	"descending", "ascending", "multiply", "multiplied", "divide", "divided", "increase", "increased", "decrease",
	"decreased", "grow", "grew", "grown", "up", "down")

// applyBreakdowns is the rule breakdowns: the plain words after "by" ("by
// acquisition channel", "by country and plan") fill the one missing
// parameter for the dimensions to split by, as a list when it takes one;
// a time grain after "by" ("by week") fills a grain parameter whose enum
// has it instead, and no dimension. "by" after an order word ("sorted
// by"), or before a name, a number or a time ("by Friday", "by 5pm") is
// no breakdown. "broken down by" is one.
func (f *filler) applyBreakdowns() {
	by := false
	for i := range f.toks {
		if f.toks[i].word == "by" && f.free(i) {
			by = true
			break
		}
	}
	if !by {
		return
	}
	target := f.soleMissingOf(breakdownProp, false)
	if target == nil {
		for _, p := range f.s.props {
			if f.missing(p) && p.typ == "array" && breakdownProp(p) {
				if target != nil {
					return
				}
				target = p
			}
		}
	}
	var grain *property
	for _, p := range f.s.props {
		if f.missing(p) && len(p.enum) > 0 && fitsName(p, grainNames) {
			grain = p
		}
	}
	if target == nil && grain == nil {
		return
	}
	for i := 0; i+1 < len(f.toks); i++ {
		if !f.free(i) || f.toks[i].word != "by" || endsClause(f.toks[i].raw) {
			continue
		}
		if i > 0 {
			prev := f.toks[i-1].word
			// "broken down by" is a breakdown; "sorted by", "up by" … are not.
			if orderWords[prev] && !(prev == "down" && i > 1 && (f.toks[i-2].word == "broken" || f.toks[i-2].word == "break" || f.toks[i-2].word == "breaks")) {
				continue
			}
		}
		k := i + 1
		if f.free(k) && f.toks[k].word == "the" {
			k++
		}
		if !f.free(k) {
			continue
		}
		if g, ok := grainWords[f.toks[k].word]; ok && (k+1 >= len(f.toks) || endsClause(f.toks[k].raw) || !f.contentWord(k+1)) {
			if grain != nil && f.missing(grain) && f.try(grain, g) {
				f.useTokens(rangeIdx(i, k)...)
			}
			continue
		}
		if target == nil || !f.missing(target) {
			continue
		}
		// Items: one to three plain lower-case words each, parted by
		// "and" or a comma.
		var items []string
		last := -1
		j := k
		for {
			start := j
			for j < len(f.toks) && j-start < 3 && f.dimensionWord(j) {
				j++
				if endsClause(f.toks[j-1].raw) {
					break
				}
			}
			if j == start {
				break
			}
			items = append(items, f.spanValue(start, j-1))
			last = j - 1
			if endsClause(f.toks[j-1].raw) && !strings.HasSuffix(f.toks[j-1].raw, ",") {
				break
			}
			if j < len(f.toks) && f.free(j) && (f.toks[j].word == "and" || strings.HasSuffix(f.toks[j-1].raw, ",")) {
				if f.toks[j].word == "and" {
					j++
				}
				continue
			}
			break
		}
		if len(items) == 0 || target.typ != "array" && len(items) > 1 {
			continue
		}
		for n, it := range items {
			items[n] = strings.TrimRight(it, ",;.")
		}
		if f.try(target, strings.Join(items, ", ")) {
			f.useTokens(rangeIdx(i, last)...)
		}
	}
}

// dimensionWord: token i may be a word of a dimension's name: a plain
// lower-case content word, not a time ("last", "week"), an order
// ("sorted") or a verb.
func (f *filler) dimensionWord(i int) bool {
	w := f.toks[i].word
	return f.contentWord(i) && !capWord(f.toks[i].raw) && !timeWord(w) && !spanOpeners[w] && !orderWords[w] && !verbs[w]
}
