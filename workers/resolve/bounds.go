package resolve

import (
	"strings"

	"github.com/toolyard/toolyard/workers/internal/money"
)

// Bounds: a request sets a limit with a comparison ("under $80", "at
// least 4 stars", "between 50 and 120 dollars", "ten at most") and the
// tool takes it as a parameter named for the bound (minPrice, max_rating,
// minimumTotal). Without this rule the comparison ran into the free-text
// parameter ("wireless earbuds under $80" searched for all of it, no
// maxPrice: a wrong value that runs) or its number was left unmapped.

var (
	// boundLeads are the words before a number that make it a bound:
	// 'l' the lower, 'u' the upper.
	boundLeads = []boundPhrase{
		bp("at least", 'l'), bp("no less than", 'l'), bp("more than", 'l'), bp("greater than", 'l'), bp("over", 'l'),
		bp("above", 'l'), bp("minimum", 'l'), bp("min", 'l'),
		bp("at most", 'u'), bp("no more than", 'u'), bp("less than", 'u'), bp("fewer than", 'u'), bp("up to", 'u'),
		bp("under", 'u'), bp("below", 'u'), bp("cheaper than", 'u'), bp("maximum", 'u'), bp("max", 'u'),
	}
	// boundTails are the words after a number (and its noun) that make it
	// one: "4 stars or more", "ten at most".
	boundTails = []boundPhrase{
		bp("at least", 'l'), bp("or more", 'l'), bp("or above", 'l'), bp("or higher", 'l'), bp("minimum", 'l'),
		bp("at most", 'u'), bp("or less", 'u'), bp("or fewer", 'u'), bp("or below", 'u'), bp("or lower", 'u'), bp("maximum", 'u'),
	}
	// boundSideNames name the parameter for each bound.
	boundSideNames = map[byte]map[string]bool{'l': setOf("min", "minimum"), 'u': setOf("max", "maximum")}
	// boundNameWords are both sides' words.
	boundNameWords = union(boundSideNames['l'], boundSideNames['u'])
	// moneyNames name the parameters an amount of money bounds, when a
	// tool has more than one bound of a side ("under $80" with maxPrice
	// and maxResults).
	moneyNames = setOf("price", "cost", "amount", "total", "budget", "spend", "value")
)

// boundPhrase is a comparison's words and the bound they set.
type boundPhrase struct {
	words []string
	side  byte
}

// bp is a bound phrase, its words split once.
func bp(phrase string, side byte) boundPhrase { return boundPhrase{strings.Fields(phrase), side} }

// applyBounds is the rule bounds.
func (f *filler) applyBounds() {
	if !f.hasBoundProp() {
		return
	}
	for i := range f.toks {
		if f.toks[i].used {
			continue
		}
		if f.betweenAt(i) {
			continue
		}
		for _, b := range boundLeads {
			if f.wordsAt(i, b.words...) && f.placeBound(b.side, i+len(b.words), rangeIdx(i, i+len(b.words)-1)) {
				break
			}
		}
		f.boundTailAt(i)
	}
}

// hasBoundProp: a numeric parameter named for a bound is missing; a
// request to a tool with none is not read word by word.
func (f *filler) hasBoundProp() bool {
	for _, side := range []byte{'l', 'u'} {
		if len(f.boundProps(side)) > 0 {
			return true
		}
	}
	return false
}

// boundProps are the missing numeric parameters named for a side's bound.
func (f *filler) boundProps(side byte) []*property {
	var out []*property
	for _, p := range f.s.props {
		if (p.typ == "integer" || p.typ == "number") && f.missing(p) && fitsName(p, boundSideNames[side]) {
			out = append(out, p)
		}
	}
	return out
}

// betweenAt reads "between X and Y" at token i to both bounds.
func (f *filler) betweenAt(i int) bool {
	if i+3 >= len(f.toks) || f.toks[i].word != "between" || f.toks[i+2].word != "and" || !f.free(i+1) || !f.free(i+3) {
		return false // a word another rule used is not read again
	}
	lo, hi := f.boundFor('l', i+1), f.boundFor('u', i+3)
	if lo == nil && hi != nil {
		lo = f.counterpart(hi) // "between 700 and 1100 pounds": the money is said once
	}
	if lo == nil || hi == nil || lo == hi {
		return false
	}
	a, okA := numeral(f.toks[i+1].raw)
	b, okB := numeral(f.toks[i+3].raw)
	if !okA || !okB || !f.try(lo, a) || !f.try(hi, b) {
		return false
	}
	f.useTokens(i, i+1, i+2, i+3)
	f.useBoundNoun(hi, i+4)
	return true
}

// boundTailAt reads a number at token i that a tail phrase makes a bound,
// right after it or after its noun ("10 at most", "4 stars or more").
func (f *filler) boundTailAt(i int) {
	if _, ok := numeral(f.toks[i].raw); !ok {
		return
	}
	for k := i + 1; k <= i+2 && k < len(f.toks) && !endsClause(f.toks[k-1].raw); k++ {
		for _, b := range boundTails {
			if f.wordsAt(k, b.words...) && f.placeBound(b.side, i, rangeIdx(k, k+len(b.words)-1)) {
				return
			}
		}
	}
}

// placeBound puts the number at token n to the side's parameter, using the
// comparison's tokens cue and the number's noun.
func (f *filler) placeBound(side byte, n int, cue []int) bool {
	if n >= len(f.toks) || f.toks[n].used {
		return false
	}
	v, ok := numeral(f.toks[n].raw)
	p := f.boundFor(side, n)
	if !ok || p == nil || !f.try(p, v) {
		return false
	}
	f.useTokens(append(cue, n)...)
	f.useBoundNoun(p, n+1)
	return true
}

// boundFor is the side's parameter for the number at token n: the one
// missing, else the one whose other words the request writes, else for an
// amount of money the one named for money. A number of days, weeks … is
// no bound of a parameter that takes no length of time.
func (f *filler) boundFor(side byte, n int) *property {
	if n >= len(f.toks) {
		return nil
	}
	ps := f.boundProps(side)
	if n+1 < len(f.toks) && rangeUnits[f.toks[n+1].word] != "" {
		return nil
	}
	if len(ps) == 1 {
		return ps[0]
	}
	if p := f.onlyBound(ps, f.writesNameOf); p != nil {
		return p
	}
	if f.money(n) {
		return f.onlyBound(ps, func(p *property) bool { return fitsName(p, moneyNames) })
	}
	return nil
}

// onlyBound is the one parameter of ps that fits, else nil.
func (f *filler) onlyBound(ps []*property, fits func(*property) bool) *property {
	var one *property
	for _, p := range ps {
		if fits(p) {
			if one != nil {
				return nil
			}
			one = p
		}
	}
	return one
}

// writesNameOf: the request writes a word of p's name other than its bound
// ("price" of maxPrice).
func (f *filler) writesNameOf(p *property) bool {
	if f.written == nil {
		// Once per request: boundFor asks it for every number.
		f.written = make(map[string]bool, len(f.toks))
		for _, t := range f.toks {
			f.written[t.word] = true
		}
	}
	for _, w := range p.words {
		if boundNameWords[w] {
			continue
		}
		if f.written[w] || f.written[w+"s"] {
			return true
		}
	}
	return false
}

// money: the number at token n is an amount of money, with a sign or a
// currency's name after it.
func (f *filler) money(n int) bool {
	if strings.ContainsAny(f.toks[n].raw, money.SignRunes) {
		return true
	}
	return n+1 < len(f.toks) && money.Names[f.toks[n+1].word] != ""
}

// useBoundNoun uses the word at token k when it says what the bound
// counts: a word of p's name or description ("4 stars", "star rating"),
// or a currency ("120 dollars").
func (f *filler) useBoundNoun(p *property, k int) {
	if k >= len(f.toks) || f.toks[k].used || endsClause(f.toks[k-1].raw) {
		return
	}
	w := f.toks[k].word
	if fillers[w] {
		return // "over 500 at Amazon": "at" of "at least this large" counts nothing
	}
	if s := strings.TrimSuffix(trimPunct(w), "s"); describesWord(p, s) || describesWord(p, w) || f.isNameWord(p, w) || money.Names[w] != "" {
		f.useTokens(k)
	}
}

// counterpart is the lower bound named as hi is but for its bound
// (minPrice of maxPrice), when it is missing.
func (f *filler) counterpart(hi *property) *property {
	rest := func(p *property) string {
		r, _ := nameWithout(p, boundNameWords)
		return r
	}
	return f.onlyBound(f.boundProps('l'), func(p *property) bool { return rest(p) == rest(hi) })
}
