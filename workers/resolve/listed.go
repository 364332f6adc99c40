package resolve

import (
	"slices"
	"strings"
	"unicode"
)

// Values a description lists: "a business metric or KPI (e.g. revenue,
// dau, signups)" says dau is a metric. Only identifiers written in lower
// case are read (a list of names, "e.g. London, Paris", is the places
// rules' and the cues'), and a request's word must be written so too.

// listCues open a list of values in a description.
var listCues = append(exampleCues[:len(exampleCues):len(exampleCues)], "i.e.")

// listedIn returns the lower-case identifiers listed in text ("(e.g. a,
// b_c, d)"); with nouns, only lists with one of them among the six words
// before the cue ("metric or KPI (e.g. …").
func listedIn(text string, nouns []string) []string {
	var out []string
	lower := strings.ToLower(text)
	for _, cue := range listCues {
		from := 0
		for {
			i := strings.Index(lower[from:], cue)
			if i < 0 {
				break
			}
			i += from
			from = i + len(cue)
			if nouns != nil && !nounBefore(lower[:i], nouns) {
				continue
			}
			rest := text[from:]
			if j := strings.IndexAny(rest, ");:\n"); j >= 0 {
				rest = rest[:j]
			}
			if j := strings.Index(rest, ". "); j >= 0 {
				rest = rest[:j]
			}
			rest = strings.NewReplacer(" or ", ",", " and ", ",", " etc", ",").Replace(rest)
			for _, item := range strings.Split(rest, ",") {
				if v := strings.Trim(strings.TrimSpace(item), `"'.`+"`"); listableValue(v) {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// nounBefore: one of nouns is among the last six words of text.
func nounBefore(text string, nouns []string) bool {
	ws := strings.FieldsFunc(text, func(r rune) bool { return !isWordRune(r) })
	if len(ws) > 6 {
		ws = ws[len(ws)-6:]
	}
	for _, w := range ws {
		for _, n := range nouns {
			if isHead(w, n) {
				return true
			}
		}
	}
	return false
}

// listableValue: v is one to three identifiers in lower case ("dau",
// "warm white").
func listableValue(v string) bool {
	ws := strings.Fields(v)
	return len(ws) >= 1 && len(ws) <= 3 && !slices.ContainsFunc(ws, func(w string) bool { return !identifierLower(w) })
}

// identifierLower: v is one word of lower-case letters, digits and
// underscores, with a letter ("dau", "conversion_rate").
func identifierLower(v string) bool {
	letter := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= 'a' && c <= 'z':
			letter = true
		case c >= '0' && c <= '9' || c == '_' || c == '-':
		default:
			return false
		}
	}
	return letter && len(v) <= 40
}

// listValues sets each text property's listed values, from its own
// description and from the tool's where the list follows its noun.
func (s *toolSchema) listValues(toolDesc string) {
	for _, p := range s.props {
		if !stringProp(p) || s.rolePaired(p) {
			continue
		}
		vals := listedIn(p.description, nil)
		if hs := heads(p); len(hs) > 0 {
			vals = append(vals, listedIn(toolDesc, hs)...)
		}
		p.listed = vals
		p.listedWords = make([][]string, len(vals))
		for k, v := range vals {
			p.listedWords[k] = strings.Fields(v)
		}
		p.codes = numberedCodes(p.description)
	}
}

// numberedCodes are the words in capitals that text writes right before a
// number ("or an input such as HDMI 2", "USB 3"): the kind of a value
// that a number alone does not say.
func numberedCodes(text string) []string {
	var out []string
	ws := strings.Fields(text)
	for i := 0; i+1 < len(ws); i++ {
		w := strings.Trim(ws[i], `"'(`)
		if capsCode(w) && isNumberToken(strings.Trim(ws[i+1], `"'),.;`)) {
			out = append(out, w)
		}
	}
	return out
}

// capsCode: w is a code written in capitals, two characters or more with
// a letter among them ("HDMI", "VGA", "PS5").
func capsCode(w string) bool {
	return len(w) >= 2 && w == strings.ToUpper(w) && strings.IndexFunc(w, unicode.IsLetter) >= 0
}

// applyListedCodes is the rule listed_codes: a code the description of
// one missing text parameter shows with a number, written in the request
// with its number ("switch to HDMI 1" for "input such as HDMI 2"), fills
// that parameter whole. Without it the number alone went to a numeric
// parameter (volume=1) and the code to a name (tv="HDMI 1"). Where the
// request writes no code the description shows, another code of the same
// shape, capitals and a number, fills the one parameter that shows codes
// ("VGA 1", "DP 2" for the same input), unless the code is the tool's own
// noun ("TV 2" names a television, not an input).
func (f *filler) applyListedCodes() {
	var shaped *property
	for _, p := range f.s.props {
		if !f.missing(p) || len(p.codes) == 0 {
			continue
		}
		if f.fillCode(p, func(code string) bool {
			return slices.ContainsFunc(p.codes, func(c string) bool { return strings.EqualFold(c, code) })
		}) {
			continue
		}
		if shaped != nil {
			return // two parameters show codes: which one a new code is, is not said
		}
		shaped = p
	}
	if shaped != nil {
		f.fillCode(shaped, func(code string) bool { return capsCode(code) && !f.tool[strings.ToLower(code)] })
	}
}

// fillCode fills p with the first code that is (a code, as written, and
// its number), with a name in capitals that goes on after it ("BMW 3
// Series"); it says whether one was found.
func (f *filler) fillCode(p *property, is func(code string) bool) bool {
	for i := 0; i+1 < len(f.toks); i++ {
		t, n := f.toks[i], f.toks[i+1]
		if t.used || n.used || endsClause(t.raw) || !isNumberToken(n.raw) || !is(t.value) {
			continue
		}
		last := i + 1
		for last+1 < len(f.toks) && !f.toks[last+1].used && !endsClause(f.toks[last].raw) && capWord(f.toks[last+1].raw) {
			last++
		}
		if f.try(p, f.spanValue(i, last)) {
			f.useTokens(rangeIdx(i, last)...)
		}
		return true
	}
	return false
}

// applyListedValues is the rule listed_values: words of the request, in
// lower case, that the descriptions list as a value of one missing text
// property, and of no other, fill it ("dau for the past 30 days", "warm
// white" for "e.g. warm white, blue").
func (f *filler) applyListedValues() {
	for _, p := range f.s.props {
		if !f.missing(p) || len(p.listed) == 0 {
			continue
		}
		hit, value, width := -1, "", 0
		for i := range f.toks {
			v, n := f.listedAt(p, i)
			if n == 0 || f.listedElsewhere(p, v) {
				continue
			}
			if hit >= 0 && value != v {
				hit = -2 // two values: which one is not said here
				break
			}
			if hit == -1 {
				hit, value, width = i, v, n
			}
		}
		if hit >= 0 && f.try(p, value) {
			f.useTokens(rangeIdx(hit, hit+width-1)...)
		}
	}
}

// listedAt is the longest value p lists that the free words from token
// i write in lower case, and its number of words; 0 when none.
func (f *filler) listedAt(p *property, i int) (value string, width int) {
	for n, v := range p.listed {
		ws := p.listedWords[n]
		if len(ws) <= width || i+len(ws) > len(f.toks) {
			continue
		}
		ok := true
		for k, w := range ws {
			t := f.toks[i+k]
			ok = ok && !t.used && t.word == w && t.value == w && (k == len(ws)-1 || !endsClause(t.raw))
		}
		if ok {
			value, width = v, len(ws)
		}
	}
	return value, width
}

func listed(p *property, w string) bool {
	for _, v := range p.listed {
		if v == w {
			return true
		}
	}
	return false
}

// listedElsewhere: another missing property lists w too.
func (f *filler) listedElsewhere(p *property, w string) bool {
	for _, q := range f.s.props {
		if q != p && f.missing(q) && listed(q, w) {
			return true
		}
	}
	return false
}

// roleWords say which end of a conversion or a move a parameter is.
var roleWords = setOf("from", "to", "source", "target", "src", "dst", "dest", "origin", "destination", "input", "output")

// rolePaired: p is one end of a pair (from_unit and to_unit): a listed
// value says what kind, not which end ("5 km in mi" lists km for the
// target), so neither is filled by its list.
func (s *toolSchema) rolePaired(p *property) bool {
	mine, role := nameWithout(p, roleWords)
	if !role {
		return false
	}
	for _, q := range s.props {
		if q != p {
			if theirs, r := nameWithout(q, roleWords); r && theirs == mine {
				return true
			}
		}
	}
	return false
}

// nameWithout is p's name without the words of drop ("from_unit" without
// from, to … is "unit"), and whether it had one: two parameters named
// alike but for such a word are the two ends of one thing.
func nameWithout(p *property, drop map[string]bool) (string, bool) {
	var rest []string
	dropped := false
	for _, w := range p.words {
		if drop[w] {
			dropped = true
			continue
		}
		rest = append(rest, w)
	}
	return strings.Join(rest, " "), dropped
}
