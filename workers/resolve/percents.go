package resolve

import (
	"regexp"
	"strconv"
	"strings"
)

// A percentage ("at 6.5%", "a 20 percent discount") is a rate: it goes to
// the numeric parameter described as one, in the scale its description
// gives. A parameter described as a rate with no scale is left alone:
// 6.5 where 0.065 was meant runs silently at a hundred times the rate.

// percentWords say a parameter takes a percentage as written.
var percentWords = setOf("percent", "percentage", "pct")

// fractionWords say a parameter takes a rate as a fraction of one.
var fractionWords = setOf("fraction", "decimal")

// rateWords name or describe a parameter for a rate or share.
var rateWords = setOf("rate", "ratio", "share", "proportion")

// fractionExample is an example written as a fraction ("e.g. 0.05").
var fractionExample = regexp.MustCompile(`\b0\.\d+`)

// percentScale is what a percentage is divided by for p: 1 when p is
// described in percent, 100 when it is a rate described as a fraction;
// ok is false for any other parameter.
func percentScale(p *property) (div float64, ok bool) {
	if p.typ != "integer" && p.typ != "number" || len(p.enum) > 0 {
		return 0, false
	}
	if fitsName(p, percentWords) || describesAny(p, percentWords) || strings.Contains(p.desc, "%") {
		return 1, true
	}
	rate := fitsName(p, rateWords) || describesAny(p, rateWords)
	if rate && (describesAny(p, fractionWords) || fractionExample.MatchString(p.desc)) {
		return 100, true
	}
	return 0, false
}

// applyPercentages is the rule percentages: the one percentage the
// request writes ("6.5%", "6.5 percent") fills the one missing numeric
// parameter described in percent, as written, or as a rate in fractions
// of one, divided by 100.
func (f *filler) applyPercentages() {
	target := f.soleMissingWhere(func(p *property) bool { return p.percentDiv > 0 })
	if target == nil {
		return
	}
	div := target.percentDiv
	at, width := -1, 0
	for i := range f.toks {
		if w := f.percentAt(i); w > 0 {
			if at >= 0 {
				return // two percentages: which is the rate is not said
			}
			at, width = i, w
		}
	}
	if at < 0 {
		return
	}
	v, _ := parseNumber(f.toks[at].value)
	if f.try(target, strconv.FormatFloat(v/div, 'f', -1, 64)) {
		f.useTokens(rangeIdx(at, at+width-1)...)
		f.percentKind()
	}
}

// percentKind fills, once a percentage is placed, the one missing enum
// parameter with a member for percentages ("a 15% off coupon" →
// discountType percent): the value is of that kind, as the request wrote
// it.
func (f *filler) percentKind() {
	if kind := f.soleMissingWhere(func(p *property) bool { return p.percentMember != "" }); kind != nil {
		f.try(kind, kind.percentMember)
	}
}

// percentMemberOf is the member of p's enum for percentages ("percent",
// "percentage", "pct"; the last when there are several), "" for none. Read
// once per manifest (property.percentMember).
func percentMemberOf(p *property) string {
	member := ""
	for _, e := range p.enum {
		if m, ok := e.(string); ok && (strings.Contains(strings.ToLower(m), "percent") || strings.EqualFold(m, "pct")) {
			member = m
		}
	}
	return member
}

// percentAt is how many tokens the percentage at token i takes: a
// number with a percent sign ("6.5%") or before "percent"; 0 for none.
func (f *filler) percentAt(i int) int {
	if !f.free(i) {
		return 0
	}
	v := f.toks[i].value
	if _, ok := parseNumber(v); !ok {
		return 0
	}
	if strings.HasSuffix(v, "%") {
		return 1
	}
	if f.free(i+1) && (f.toks[i+1].word == "percent" || f.toks[i+1].word == "pct") {
		return 2
	}
	return 0
}
