package resolve

import "strings"

// Axes: "a bar chart of revenue by region", "plot price against floor
// area" name a chart's two axes: the measure before by/against/vs/versus/
// per is the y axis, the words after it the x axis.

// axisOf is the chart axis p takes the column of, 'x' or 'y', else 0:
// named x, x_axis, xAxis …, or described as for the x axis. Read once per
// manifest (property.axis).
func axisOf(p *property) byte {
	if !stringProp(p) && !stringList(p) {
		return 0
	}
	for _, a := range []string{"x", "y"} {
		switch {
		case p.norm == a || p.norm == a+"axis" || p.norm == a+"column" || p.norm == a+"col",
			strings.Contains(p.desc, a+" axis") || strings.Contains(p.desc, a+"-axis"):
			return a[0]
		}
	}
	return 0
}

// axisLinks part a chart's measure from what it is plotted along.
var axisLinks = setOf("by", "against", "vs", "versus", "per")

// applyAxes is the rule axes: for a tool with a missing x and a missing y
// axis parameter, the plain words right before by/against/vs/versus/per
// are the y axis and those right after it the x axis ("revenue by region"
// → y revenue, x region); never after an order word ("sorted by"), nor
// before a name, a number or a time ("by Friday").
func (f *filler) applyAxes() {
	var x, y *property
	for _, p := range f.s.props {
		switch {
		case !f.missing(p):
		case p.axis == 'x':
			x = p
		case p.axis == 'y':
			y = p
		}
	}
	if x == nil || y == nil {
		return
	}
	verb := f.verbIndex()
	for i := 1; i+1 < len(f.toks); i++ {
		if !f.free(i) || !axisLinks[f.toks[i].word] || endsClause(f.toks[i].raw) || orderWords[f.toks[i-1].word] {
			continue
		}
		// The measure: up to three plain words back from the link, not
		// the request's verb ("plot price against area").
		first := i
		for first > 0 && first-1 != verb && i-first < 3 && f.free(first-1) && f.axisWord(first-1) && !endsClause(f.toks[first-1].raw) && !f.tool[f.toks[first-1].word] {
			first--
		}
		// The axis it is plotted along: up to three plain words on.
		last := i
		for last+1 < len(f.toks) && last-i < 3 && f.free(last+1) && f.axisWord(last+1) {
			last++
			if endsClause(f.toks[last].raw) {
				break
			}
		}
		if first == i || last == i {
			continue
		}
		if f.try(y, f.spanValue(first, i-1)) {
			if f.try(x, f.spanValue(i+1, last)) {
				f.useTokens(rangeIdx(first, last)...)
			} else {
				f.unset(y)
			}
		}
		return
	}
}

// axisWord: token i may name a column: a plain lower-case content word,
// a unit of time among them ("by week", "per month": a grain is an axis),
// but no day a deadline names ("by Friday", "by tomorrow").
func (f *filler) axisWord(i int) bool {
	w := f.toks[i].word
	if dayWord(w) {
		return false
	}
	return f.contentWord(i) && !capWord(f.toks[i].raw) && !spanOpeners[w] && !orderWords[w] && !verbs[w]
}
