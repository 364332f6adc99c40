package resolve

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// applyOrderedNumbers fills numeric parameters that only have an order, not
// a meaning a word could cue: a and b described "First number" and "Second
// number", x and y, n1 and n2. "get the sum of 2 and 3" → a=2, b=3: the
// numbers written, in the order written, go to the parameters in their
// order. Only when every missing required number is ordered this way and
// the text holds exactly as many unused numbers; anything else is a guess
// the agent should make explicit.
func (f *filler) applyOrderedNumbers() {
	type ranked struct {
		p    *property
		rank int
	}
	var group []ranked
	for _, p := range f.s.props {
		if !p.required || !f.missing(p) || p.typ != "integer" && p.typ != "number" || len(p.enum) > 0 {
			continue
		}
		r, ok := orderRank(p)
		if !ok {
			return
		}
		group = append(group, ranked{p, r})
	}
	if len(group) < 2 {
		return
	}
	sort.SliceStable(group, func(i, j int) bool { return group[i].rank < group[j].rank })
	for i := 1; i < len(group); i++ {
		if group[i].rank == group[i-1].rank {
			return
		}
	}
	var nums []int
	for i, t := range f.toks {
		if !f.free(i) || isClock(t.word) {
			continue
		}
		if _, ok := parseNumber(t.value); ok {
			nums = append(nums, i)
		}
	}
	if len(nums) != len(group) {
		return
	}
	for k, g := range group {
		if f.try(g.p, f.toks[nums[k]].value) {
			f.useTokens(nums[k])
		}
	}
}

// ordinalWords open a description that says which of several values a
// parameter is: "First number", "The second operand".
var ordinalWords = map[string]int{
	"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5, "5th": 5,
}

// orderRank is a parameter's place among values that differ only in order:
// from an ordinal opening its description, a single-letter name (a, b, x,
// y, by the alphabet) or a name ending in a digit (n1, num2, x_1).
func orderRank(p *property) (int, bool) {
	d := strings.Fields(p.desc)
	if len(d) > 0 && d[0] == "the" {
		d = d[1:]
	}
	if len(d) > 0 {
		if r, ok := ordinalWords[strings.Trim(d[0], ".,:;")]; ok {
			return r, true
		}
	}
	if len(p.name) == 1 && unicode.IsLetter(rune(p.name[0])) {
		return 100 + int(unicode.ToLower(rune(p.name[0]))), true
	}
	i := len(p.name)
	for i > 0 && p.name[i-1] >= '0' && p.name[i-1] <= '9' {
		i--
	}
	if i > 0 && i < len(p.name) && i >= len(p.name)-2 {
		n, err := strconv.Atoi(p.name[i:])
		if err == nil {
			return 1000 + n, true
		}
	}
	return 0, false
}
