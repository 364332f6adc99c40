package resolve

import (
	"regexp"
	"slices"
	"strings"
)

// Requests about data name their tables, columns and percentiles in the
// shorthand of people who query it: "the median and 95th percentile of
// latency_ms in requests" is the column latency_ms of the table requests,
// and the percentiles 50 and 95. None of these words looks like a value
// to the other rules: lower case, no capital, no quote.

// snakeCase is an identifier with an underscore: a column's or table's
// name, never a word of prose.
var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)+$`)

// plainIdent is a lower-case word that can be a table's name.
var plainIdent = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// columnNames and tableNames name, or describe, the parameters for a
// column and a table.
var (
	columnNames = setOf("column", "field")
	tableNames  = setOf("table")
)

// applyTables is the rule tables: a snake_case identifier after "of"
// ("the p95 of latency_ms") fills the one missing text parameter named or
// described as a column; a plain lower-case word after "in" or "from"
// that ends its clause, or a snake_case one ("of latency_ms in
// requests"), the one for a table.
func (f *filler) applyTables() {
	column, table := f.soleNamedOr(columnNames), f.soleNamedOr(tableNames)
	for i := 1; i < len(f.toks); i++ {
		if !f.free(i-1) || !f.free(i) || endsClause(f.toks[i-1].raw) {
			continue
		}
		w := f.toks[i].value
		switch f.toks[i-1].word {
		case "of":
			if column != nil && f.missing(column) && snakeCase.MatchString(w) && f.try(column, w) {
				f.useTokens(i-1, i)
			}
		case "in", "from":
			if table != nil && f.missing(table) && f.tableWord(i, w) && f.try(table, w) {
				f.useTokens(i-1, i)
			}
		}
	}
}

// soleNamedOr is the one missing text parameter named for one of names,
// or when none is named so, the one described with one ("Source table";
// "Source query, instead of a table" is not one).
func (f *filler) soleNamedOr(names map[string]bool) *property {
	named := func(p *property) bool { return fitsName(p, names) }
	if slices.ContainsFunc(f.s.props, named) {
		return f.soleMissingOf(named, false)
	}
	return f.soleMissingOf(func(p *property) bool { return describesAny(p, names) }, false)
}

// idiomEnds are the words that end an idiom after in or from ("in
// total", "from scratch"): they say how, never which table.
var idiomEnds = setOf("total", "detail", "full", "general", "short", "brief", "advance", "particular", "practice",
	"parallel", "bulk", "addition", "order", "time", "future", "summary", "place", "turn", "progress", "reverse",
	"scratch", "memory", "home", "here", "there", "above", "below", "before", "earlier", "now")

// tableWord: w, at token i, can name a table: a snake_case identifier, or
// a plain lower-case word that ends the clause and is no common word, no
// idiom's ("in total"), no time ("in March") and no word of the tool's.
func (f *filler) tableWord(i int, w string) bool {
	if snakeCase.MatchString(w) {
		return true
	}
	ends := i+1 == len(f.toks) || endsClause(f.toks[i].raw)
	return ends && f.bareName(w)
}

// bareName: w, a plain lower-case word, can be a thing's name: no common
// word, no idiom's end ("in total"), no time ("in March") and no word of
// the tool's.
func (f *filler) bareName(w string) bool {
	return plainIdent.MatchString(w) && !commonWord(w) && !idiomEnds[w] && !timeWord(w) && !timeName(w) && !f.tool[w]
}

// percentileNames name, or describe, a parameter for percentiles.
var percentileNames = setOf("percentile", "percentiles")

// ordinalNumber is a number written as an ordinal ("95th", "99.9th").
var ordinalNumber = regexp.MustCompile(`^(\d+(?:\.\d+)?)(?:st|nd|rd|th)$`)

// percentileCode is a percentile written short ("p95", "p99.9").
var percentileCode = regexp.MustCompile(`^p(\d{1,2}(?:\.\d+)?)$`)

// applyPercentiles is the rule percentiles: the percentiles a request
// asks for — ordinals before "percentile(s)" ("the 90th and 99th
// percentiles"), short codes ("p99"), "median" for the 50th — fill the
// one missing parameter named or described for percentiles, a list in the
// order written, or a number when there is one.
func (f *filler) applyPercentiles() {
	target := f.soleMissingWhere(func(p *property) bool {
		numeric := p.typ == "number" || p.typ == "integer" || p.typ == "array" && p.items != nil && (p.items.typ == "number" || p.items.typ == "integer")
		return numeric && (fitsName(p, percentileNames) || describesAny(p, percentileNames))
	})
	if target == nil {
		return
	}
	var vals []string
	var idx []int
	named := f.percentileChains()
	for i := range f.toks {
		if v, ok := f.percentileAt(i, named); ok {
			vals, idx = append(vals, v), append(idx, i)
		}
	}
	if len(vals) == 0 || target.typ != "array" && len(vals) > 1 {
		return
	}
	if f.try(target, strings.Join(vals, ", ")) {
		f.useTokens(idx...)
	}
}

// percentileAt is the percentile token i writes: an ordinal before
// "percentile(s)" or before another such ordinal and "and"/"or" (named,
// from percentileChains), a code ("p95") or "median".
func (f *filler) percentileAt(i int, named []bool) (string, bool) {
	if !f.free(i) {
		return "", false
	}
	w := f.toks[i].word
	if w == "median" {
		return "50", true
	}
	if m := percentileCode.FindStringSubmatch(w); m != nil {
		return m[1], true
	}
	m := ordinalNumber.FindStringSubmatch(w)
	if m == nil {
		return "", false
	}
	return m[1], named[i]
}

// percentileChains says, for each token, whether the free words after it,
// "and", "or" and ordinals only, reach "percentile(s)" ("the 90th and
// 99th percentiles"): read from the end in one pass, where reading on
// from each ordinal was quadratic in a long chain.
func (f *filler) percentileChains() []bool {
	named := make([]bool, len(f.toks))
	reaches := false // the words from k on reach "percentile(s)"
	for k := len(f.toks) - 1; k >= 0; k-- {
		named[k] = reaches
		switch w := f.toks[k].word; {
		case !f.free(k):
			reaches = false
		case w == "percentile" || w == "percentiles":
			reaches = true
		case w == "and" || w == "or" || ordinalNumber.MatchString(w):
		default:
			reaches = false
		}
	}
	return named
}
