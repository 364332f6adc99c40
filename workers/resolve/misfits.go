package resolve

import (
	"strings"
	"unicode"
)

// A word the request writes for an enum parameter that is none of its
// members, nor a synonym of one ("checksum of a.txt with sha3" for md5,
// sha1, sha256 or sha512), would leave the parameter to its default: the
// call would run with a value the person did not ask for. Such a misfit
// is reported for the parameter (unmapped), so that the call is asked
// for again rather than run. A word is one when it has the look of the
// members — a code of their letters-and-digits shape ("crc32", "blake2",
// "sha-3"), or the letters a code member opens with ("sha") — or when it
// stands where the parameter's value would: beside a word of its name or
// of its short description ("whirlpool hash" for "Hash algorithm",
// "algorithm whirlpool"), or, for members that are all codes, after
// using or via, or before the tool's own noun ("using whirlpool",
// "whirlpool checksum"). Ordinary words are none: common words, the
// tool's own words, and words that only describe ("with care").

// enumShapes reads what a misfit of p's members looks like: the shapes of
// its members that are codes (codeShape), the letters those open with, and
// whether every member is a code. Set once per manifest (readings).
func (p *property) enumShapes() {
	if len(p.enum) == 0 {
		return
	}
	p.allCodes = true
	for _, e := range p.enum {
		m, ok := e.(string)
		n := normalize(m)
		if !ok || !code(n) {
			p.allCodes = false
			continue
		}
		if p.codeShapes == nil {
			p.codeShapes, p.codeStems = map[string]bool{}, map[string]bool{}
		}
		p.codeShapes[codeShape(n)] = true
		if stem := strings.TrimRightFunc(n, unicode.IsDigit); len(stem) >= 2 && !strings.ContainsFunc(stem, unicode.IsDigit) {
			p.codeStems[stem] = true
		}
	}
	// The words the value stands beside: the name's, and the short
	// description's ("Hash algorithm").
	p.valueCues = append([]string(nil), p.words...)
	if fields := strings.Fields(p.desc); len(fields) <= 3 {
		for _, w := range fields {
			if w = trimPunct(w); len(w) > 2 && !commonWord(w) {
				p.valueCues = append(p.valueCues, w)
			}
		}
	}
}

// codeShape is a code's runs of letters and digits, each as one class:
// "sha256" and "crc32" are "ad", "x86v2" is "adad".
func codeShape(n string) string {
	var b strings.Builder
	var last byte
	for _, r := range n {
		c := byte('a')
		if unicode.IsDigit(r) {
			c = 'd'
		}
		if c != last {
			b.WriteByte(c)
			last = c
		}
	}
	return b.String()
}

// enumMisfit is the enum parameter that token i is a misfit of (see
// above), or nil: the parameter the request left unset, and the only one
// the word could be meant for.
func (f *filler) enumMisfit(i int) *property {
	t := f.toks[i]
	w := t.word
	if !f.free(i) || len(w) < 2 || commonWord(w) || f.tool[w] || isNumber(w) {
		return nil
	}
	// The word's code form, read once for every enum parameter.
	n := t.norm
	isCode := code(n)
	shape := ""
	if isCode {
		shape = codeShape(n)
	}
	var found *property
	for _, p := range f.s.props {
		if len(p.enum) == 0 || f.given[p.name] || f.failed[p.name] {
			continue
		}
		if canTake(p, t.value) {
			continue // a member, or a synonym of one
		}
		looks := isCode && p.codeShapes[shape] || p.codeStems[n]
		if !looks && !f.standsFor(p, i) {
			continue
		}
		if found != nil {
			return nil // which of two parameters is unsaid
		}
		found = p
	}
	return found
}

// misfitVia introduce the means a thing is done with: "using whirlpool",
// "via ftp". ("with" has too many other senses: "with care".)
var misfitVia = setOf("using", "via")

// standsFor: token i, a word that can name a value, stands where p's
// value would: beside a word of p's name or short description ("whirlpool
// hash", "algorithm whirlpool"), or, when p's members are all codes, after
// using/via or before the tool's own noun ("whirlpool checksum").
func (f *filler) standsFor(p *property, i int) bool {
	w := f.toks[i].word
	if !code(f.toks[i].norm) && (f.ownWord(w) || modifierWord(w) || leftoverFraming[w] || quantifiers[w] || !f.contentWord(i)) {
		return false
	}
	if i > 0 && !endsClause(f.toks[i-1].raw) {
		prev := f.toks[i-1].word
		if p.allCodes && misfitVia[prev] || f.valueCue(p, prev) {
			return true
		}
	}
	if i+1 >= len(f.toks) || endsClause(f.toks[i].raw) {
		return false
	}
	next := f.toks[i+1].word
	return f.valueCue(p, next) || p.allCodes && f.tool[next]
}

// valueCue: w is a word p's value stands beside (property.valueCues).
func (f *filler) valueCue(p *property, w string) bool {
	for _, c := range p.valueCues {
		if isHead(w, c) {
			return true
		}
	}
	return false
}

// numberMisfit is the numeric parameter that the number at token i is
// written for, by the noun beside it ("the first 2.5 lines", "lines 2.5",
// "2.5 levels deep" for "How many directory levels to descend"), and that
// cannot take it (a fraction for a whole number), or nil: without it the
// number would be dropped, or offered to a parameter that takes any text,
// and the parameter left to its default as if no number had been said.
func (f *filler) numberMisfit(i int) *property {
	v := f.toks[i].value
	var found *property
	for _, p := range f.s.props {
		if p.typ != "integer" && p.typ != "number" || f.given[p.name] || f.failed[p.name] || canTake(p, v) {
			continue
		}
		if !f.nounOf(p, i-1, false) && !f.nounOf(p, i+1, true) {
			continue
		}
		if found != nil {
			return nil // which of two parameters is unsaid
		}
		found = p
	}
	return found
}

// nounOf: token k, beside a number in its clause, names what p counts: a
// word of p's name, a noun p counts, or after the number ("2.5 levels")
// a content word of p's description.
func (f *filler) nounOf(p *property, k int, after bool) bool {
	if k < 0 || k >= len(f.toks) {
		return false
	}
	if after && endsClause(f.toks[k-1].raw) || !after && endsClause(f.toks[k].raw) {
		return false // "…, 2.5" or "lines, 2.5": not one phrase
	}
	w := f.toks[k].word
	return f.isNameWord(p, w) || p.countedNouns[w] || singularOf(w, p.countedNouns) ||
		after && len(w) > 2 && !commonWord(w) && describesNoun(p, w)
}
