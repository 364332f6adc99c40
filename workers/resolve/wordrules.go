package resolve

import (
	"strings"
	"unicode"
)

// applyShapes is rule 4: paths, URLs and addresses fill properties named
// for them, in order of appearance.
func (f *filler) applyShapes() {
	for k, order := range f.s.shapeTakers {
		if len(order) == 0 {
			continue
		}
		sh := shapes[k]
		for i := range f.toks {
			t := &f.toks[i]
			val := t.value
			if t.used || !sh.fits(val) {
				continue
			}
			for _, p := range order {
				// Several paths may accumulate into one array property.
				if !f.missing(p) && !(p.typ == "array" && f.given[p.name]) {
					continue
				}
				if f.try(p, val) {
					t.used = true
					break
				}
			}
		}
	}
}

// shapeTakers are, for each of shapes, the properties that may take a
// value of that shape (takesShape), in the order the shapes rule offers
// it to them.
func shapeTakers(props []*property) [][]*property {
	byNeed := requiredFirst(props)
	out := make([][]*property, len(shapes))
	for k, sh := range shapes {
		for _, p := range pathOrder(byNeed, sh.names) {
			if takesShape(p, sh) {
				out[k] = append(out[k], p)
			}
		}
	}
	return out
}

// takesShape: p may take a value of shape sh, by its type, its name or
// its description; a glob goes to no parameter for what to leave out.
func takesShape(p *property, sh shape) bool {
	if p.typ != "string" && p.typ != "array" && p.typ != "" || len(p.enum) > 0 ||
		!fitsName(p, sh.names) && (sh.described == nil || !sh.described(p)) {
		return false
	}
	return !sh.names["glob"] || globTarget(p)
}

// requiredFirst puts the required parameters first, each group in the
// declared order: a value the request states fills what the tool needs
// before what it may take ("email ann@example.org …": to, not cc, whatever
// order the schema declares them in; schemas generated from code often
// sort their properties).
func requiredFirst(props []*property) []*property {
	out := make([]*property, 0, len(props))
	for _, p := range props {
		if p.required {
			out = append(out, p)
		}
	}
	for _, p := range props {
		if !p.required {
			out = append(out, p)
		}
	}
	return out
}

// pathOrder puts the parameters a path is read from before those it is
// written to, since requests say "from A to B" ("move notes.txt to
// archive/"), whatever order the schema declares them in (server-filesystem's
// move_file declares destination first).
func pathOrder(props []*property, names map[string]bool) []*property {
	if !names["path"] {
		return props
	}
	var from, other, to []*property
	for _, p := range props {
		switch {
		case fitsName(p, sourceWords):
			from = append(from, p)
		case fitsName(p, destWords):
			to = append(to, p)
		default:
			other = append(other, p)
		}
	}
	if len(from) == 0 || len(to) == 0 {
		return props
	}
	return append(append(append(make([]*property, 0, len(props)), from...), other...), to...)
}

var (
	sourceWords = setOf("source", "src", "from", "origin")
	destWords   = setOf("dest", "destination", "target", "to")
)

func fitsName(p *property, names map[string]bool) bool {
	for _, w := range p.words {
		if names[w] {
			return true
		}
	}
	return false
}

func trimQuotes(s string) string {
	return strings.Trim(s, `"'“”‘’`)
}

// enumWord: a word of prose names enum member m, ignoring case, separators
// and plural ("images" for image). Synonyms and prefixes are for values
// given explicitly; in prose they would match too much. One exception: a
// member that is a code (letters and digits: md5, sha256, mp3) glued to a
// suffix of one to three letters, the form command names and plurals
// take ("md5sum", "sha1sum", "mp3s"): read as the code, or "md5sum of
// a.iso" ran with the default algorithm.
func enumWord(m, word string) bool {
	if strings.EqualFold(m, word) {
		return true
	}
	nm, nw := normalize(m), normalize(word)
	if nm == "" {
		return false
	}
	if nm == nw || nm+"s" == nw || nm+"es" == nw || ingForm(nm, nw) {
		return true
	}
	rest, ok := strings.CutPrefix(nw, nm)
	return ok && code(nm) && len(rest) >= 1 && len(rest) <= 3 && !strings.ContainsFunc(rest, func(r rune) bool { return r < 'a' || r > 'z' })
}

// ingForm: word is the -ing form of the verb m, as it qualifies a noun
// ("driving directions" for the member drive, "a biking route", "walking"):
// m+ing, a final e dropped (drive → driving), a final consonant doubled
// after a vowel (ship → shipping).
func ingForm(m, word string) bool {
	stem, ok := strings.CutSuffix(word, "ing")
	if !ok || len(m) < 3 {
		return false
	}
	n := len(m)
	last := m[n-1]
	switch {
	case stem == m:
		return true
	case last == 'e' && stem == m[:n-1]:
		return true
	case !strings.ContainsRune("aeiouwxy", rune(last)) && strings.ContainsRune("aeiou", rune(m[n-2])) && stem == m+string(last):
		return true
	}
	return false
}

// code: s has letters and digits, both.
func code(s string) bool {
	return strings.ContainsFunc(s, unicode.IsDigit) && strings.ContainsFunc(s, unicode.IsLetter)
}

// applyEnumWords is rule 5: a word naming one value of exactly one
// missing enum property.
func (f *filler) applyEnumWords() {
	hits := map[*property][]enumHit{}
	owners := map[int]int{}
	var anyValue map[*property]bool
	for _, p := range f.s.props {
		if len(p.enum) > 0 && f.missing(p) && f.anyValueOf(p) {
			if anyValue == nil {
				anyValue = map[*property]bool{}
			}
			anyValue[p] = true
		}
	}
	for i, t := range f.toks {
		if t.used || f.tool[t.word] {
			continue
		}
		if k := f.eitherWay(i); k > i {
			// "paid or not": no filter on it, and nothing to report.
			f.useTokens(rangeIdx(i, k)...)
			continue
		}
		for _, p := range f.s.props {
			if !f.missing(p) || len(p.enum) == 0 || anyValue[p] {
				continue
			}
			for _, e := range p.enum {
				if s, ok := e.(string); ok && enumWord(s, t.word) && !articleForCode(s, t.raw) {
					hits[p] = append(hits[p], enumHit{s, i})
					owners[i]++
				}
			}
		}
	}
	for _, p := range f.s.props {
		hs, heads := f.compounds(hits[p])
		if len(hs) == 0 {
			continue
		}
		distinct := true
		for _, h := range hs[1:] {
			if !strings.EqualFold(h.value, hs[0].value) {
				distinct = false
			}
		}
		if distinct && owners[hs[0].tok] == 1 && f.try(p, hs[0].value) {
			for _, h := range hs {
				f.toks[h.tok].used = true
				f.useNameAround(p, h.tok)
			}
			f.useTokens(heads...)
		}
	}
}

// articleForCode: the word is the article "a" or "an" written in lower
// case, and the member a code in capitals ("A", "AN"): "add a CNAME
// record" asks for no A record. A word in capitals is the code ("an A
// record").
func articleForCode(member, raw string) bool {
	w := strings.Trim(raw, `"'“”‘’.,!?;:()`)
	return (w == "a" || w == "an") && member == strings.ToUpper(member)
}

// enumHit is a word of the request equal to an enum value.
type enumHit struct {
	value string
	tok   int
}

// compounds folds two values of one enum written as a compound noun
// ("email address" where email and address are both values): the first
// word says which, the second is the noun it narrows, so the two are one
// value, not two the request leaves to choose from. It returns the hits
// left and the tokens of the nouns folded.
func (f *filler) compounds(hs []enumHit) ([]enumHit, []int) {
	var heads []int
	out := hs[:0:0]
	for k, h := range hs {
		if k > 0 && h.tok == hs[k-1].tok+1 && !endsClause(f.toks[hs[k-1].tok].raw) {
			heads = append(heads, h.tok)
			continue
		}
		out = append(out, h)
	}
	return out, heads
}

// useNameAround marks the property's name next to its value as used too
// ("imperial units", "units imperial"), so it does not end up in free text.
func (f *filler) useNameAround(p *property, tok int) {
	if idx, ok := f.nameEndsAt(p, tok); ok {
		f.useTokens(idx...)
	}
	for end := tok + 2; end <= tok+1+len(p.words) && end <= len(f.toks); end++ {
		if idx, ok := f.nameEndsAt(p, end); ok && idx[0] == tok+1 {
			f.useTokens(idx...)
		}
	}
}

// eitherWay reads a value and its contrary at token i ("paid or not",
// "whether paid or unpaid", "open or closed" is two values, not this): it
// returns the last token of "X or not"/"X or no"/"X or unX"/"X or
// non-X", else -1. A value asked for either way filters nothing. X or its
// contrary is a member of a missing enum parameter: other words are
// prose ("to be or not to be"), for the other rules to read.
func (f *filler) eitherWay(i int) int {
	if i+2 >= len(f.toks) || endsClause(f.toks[i].raw) || f.toks[i+1].word != "or" || endsClause(f.toks[i+1].raw) {
		return -1
	}
	w, n := f.toks[i].word, f.toks[i+2].word
	if (n == "not" || n == "no" || n == "un"+w || n == "non-"+w || n == "non"+w || n == "in"+w) && (f.missingMember(w) || f.missingMember(n)) {
		return i + 2
	}
	return -1
}

// missingMember: w names a member of a missing enum parameter.
func (f *filler) missingMember(w string) bool {
	for _, p := range f.s.props {
		if !f.missing(p) {
			continue
		}
		for _, e := range p.enum {
			if s, ok := e.(string); ok && enumWord(s, w) {
				return true
			}
		}
	}
	return false
}

// anyWords ask for every value of a parameter: "any status", "all
// statuses", "regardless of status", "whatever the status".
var anyWords = setOf("any", "all", "every", "regardless", "irrespective", "whatever")

// anyValueOf: the request asks for p's every value ("invoices of any
// status"): no enum word fills it.
func (f *filler) anyValueOf(p *property) bool {
	for end := 1; end <= len(f.toks); end++ {
		idx, ok := f.nameEndsAt(p, end)
		if w := f.toks[end-1].word; !ok && len(p.words) == 1 && (w == p.words[0]+"s" || w == p.words[0]+"es") {
			idx, ok = []int{end - 1}, true // "all statuses"
		}
		if !ok {
			continue
		}
		k := idx[0] - 1
		for k >= 0 && (f.toks[k].word == "of" || f.toks[k].word == "the") {
			k--
		}
		if k >= 0 && anyWords[f.toks[k].word] && !endsClause(f.toks[k].raw) {
			return true
		}
	}
	return false
}
