package resolve

import (
	"slices"
	"sort"
	"strings"
)

// precedingCue reports the property whose name ends just before byte
// offset at, allowing one connector word in between ("message of" "x").
func (f *filler) precedingCue(at int) (*property, []int) {
	end := f.tokenFrom(at)
	for _, skip := range []int{0, 1} {
		last := end - skip
		if last <= 0 || (skip == 1 && (f.toks[end-1].used || !connectors[f.toks[end-1].word])) {
			continue
		}
		for _, p := range f.s.props {
			if !f.missing(p) {
				continue
			}
			if idx, ok := f.nameEndsAt(p, last); ok {
				for k := last; k < end; k++ {
					idx = append(idx, k)
				}
				return p, idx
			}
		}
	}
	return nil, nil
}

// nameEndsAt reports whether p's name is written in the unused tokens just
// before index end, as one token ("max_results") or as its words ("max
// results"), and returns their indexes.
func (f *filler) nameEndsAt(p *property, end int) ([]int, bool) {
	if end <= 0 {
		return nil, false
	}
	if t := f.toks[end-1]; !t.used && t.norm == p.norm && p.norm != "" {
		return []int{end - 1}, true
	}
	n := len(p.words)
	if n < 2 || end < n {
		return nil, false
	}
	for k := 0; k < n; k++ {
		t := f.toks[end-n+k]
		if t.used || t.word != p.words[k] {
			return nil, false
		}
	}
	idx := make([]int, n)
	for k := range idx {
		idx[k] = end - n + k
	}
	return idx, true
}

// tokenFrom is the index of the first token that starts at byte at or
// after it (len(f.toks) when none does).
func (f *filler) tokenFrom(at int) int {
	return sort.Search(len(f.toks), func(i int) bool { return f.toks[i].start >= at })
}

func (f *filler) useTokens(idx ...int) {
	for _, i := range idx {
		f.toks[i].used, f.toks[i].strayDate = true, false
	}
}

// applyCuedQuoted is the first half of rule 3: `message "hello"`.
func (f *filler) applyCuedQuoted() {
	for i, pr := range f.pairs {
		if pr.key != "" || f.pairUsed[i] {
			continue
		}
		if p, idx := f.precedingCue(pr.start); p != nil && f.try(p, pr.value) {
			f.pairUsed[i] = true
			f.useTokens(idx...)
		}
	}
}

// applyCues is rule 2: a property's name followed by its value ("limit
// 50"), or for numbers preceded by it ("20 lines").
func (f *filler) applyCues() {
	f.describedCues()
	for _, p := range f.s.props {
		if !f.missing(p) {
			continue
		}
		found := false
		for end := 1; end <= len(f.toks) && !found; end++ {
			if idx, ok := f.nameEndsAt(p, end); ok {
				// "an episode of The Daily" names the show, not the
				// episode (ownerName).
				found = stringProp(p) && f.ownerName(p, idx[len(idx)-1]) || f.cueAfter(p, idx, end) || f.cueBefore(p, idx)
			}
		}
		if !found && (p.typ == "integer" || p.typ == "number") && len(p.words) > 1 && f.uniqueFirstWord(p) {
			// "duration 45" for duration_minutes: the name's first word
			// suffices for a number when no other property starts with it.
			for i := range f.toks {
				if !f.toks[i].used && f.toks[i].word == p.words[0] && f.cueAfter(p, []int{i}, i+1) {
					break
				}
			}
		}
	}
}

// describedCues reads a value after the noun a text parameter's
// description names it by ("tab Scores" for sheet, "Tab name") before
// any parameter's own name: "the sheet Retention, tab Scores" names the
// tab Scores, and Retention, the spreadsheet, is no tab.
func (f *filler) describedCues() {
	for _, p := range f.s.props {
		n := p.noun
		if n == "" || !f.missing(p) || !stringProp(p) || f.namesOther(p, n) {
			continue
		}
		for i := range f.toks {
			if f.free(i) && f.toks[i].word == n && f.cueAfter(p, []int{i}, i+1) {
				break
			}
		}
	}
}

// describedNoun is the noun p's description names it by, the word before
// "name" or "id" ("Tab name" → tab, "Account or card id" → card), when it
// is no word of p's own name; "" for none.
func describedNoun(p *property) string {
	fields := strings.Fields(p.desc)
	for i := 1; i < len(fields); i++ {
		if w := trimPunct(fields[i]); w != "name" && w != "id" && w != "identifier" {
			continue
		}
		n := trimPunct(fields[i-1])
		if len(n) < 3 || commonWord(n) || slices.Contains(p.words, n) {
			return ""
		}
		return n
	}
	return ""
}

// namesOther: w is a word of the name of a parameter other than p.
func (f *filler) namesOther(p *property, w string) bool {
	for _, q := range f.s.props {
		if q != p && f.isNameWord(q, w) {
			return true
		}
	}
	return false
}

func (f *filler) uniqueFirstWord(p *property) bool {
	for _, q := range f.s.props {
		if q != p && len(q.words) > 0 && q.words[0] == p.words[0] {
			return false
		}
	}
	return true
}

// maxConnectors bounds the words allowed between a name and its value
// ("limit is set to 50" is past it; "limit of 50" is not).
const maxConnectors = 2

// cueAfter tries the value at token next for the name at tokens name,
// skipping up to maxConnectors connector words.
func (f *filler) cueAfter(p *property, name []int, next int) bool {
	if r := f.toks[name[len(name)-1]].raw; strings.HasSuffix(r, ".") || strings.HasSuffix(r, "!") || strings.HasSuffix(r, "?") {
		return false
	}
	if len(name) == 1 && f.verbSlot(name[0]) && next < len(f.toks) && capWord(f.toks[next].raw) && !looksLikeValue(f.toks[next].value) {
		return false // "text Mom that …" texts Mom (verbSlot)
	}
	if len(name) == 1 && f.verbSlot(name[0]) && fitsName(p, contentNames) && f.recipientMissing(p) {
		return false // "text 555-0199 saying …": who gets the text, not what it says
	}
	for skipped := 0; next < len(f.toks) && !f.toks[next].used; skipped++ {
		if f.valueAt(p, name, next) {
			return true
		}
		if skipped == maxConnectors || !connectors[f.toks[next].word] {
			return false
		}
		if f.toks[next].word == "to" && f.carriesTo(p) {
			return false // "export the orders table to CSV": where it goes
		}
		name = append(name, next)
		next++
	}
	return false
}

// valueAt takes token next (and, for a name, the capitalised words after
// it) as p's value if it looks like one and coerces.
func (f *filler) valueAt(p *property, name []int, next int) bool {
	t := f.toks[next]
	val := t.value
	last := next
	if (p.typ == "string" || p.typ == "" || p.typ == "array") && len(p.enum) == 0 {
		switch {
		case looksLikeValue(val):
		case isCapitalized(val):
			// A run of capitalised words is a name: "location New York".
			if last = f.capRun(next); last < 0 || f.compoundModifier(next, last) {
				return false
			}
			if slices.Contains(p.words, "title") {
				last = f.sentenceTitle(last)
			}
			val = cleanValue(f.text[t.start:f.toks[last].end])
		default:
			return false
		}
	}
	if !f.try(p, val) {
		return false
	}
	f.useTokens(name...)
	for k := next; k <= last; k++ {
		f.useTokens(k)
	}
	if p.typ == "array" && last == next {
		f.moreListed(p, last)
	}
	return true
}

// moreListed adds to array parameter p the values listed after the one at
// token i, each of the same look, after a comma or "and": "cc
// ann@example.com, joe@example.com and kim@example.com" copies all three,
// not the first (the others went to the next parameter that takes an
// address).
func (f *filler) moreListed(p *property, i int) {
	for {
		k := i + 1
		joined := strings.HasSuffix(f.toks[i].raw, ",")
		if f.free(k) && f.toks[k].word == "and" {
			k, joined = k+1, true
		}
		if !joined || !f.free(k) || !looksLikeValue(f.toks[k].value) || !sameShape(f.toks[i].value, f.toks[k].value) || !f.try(p, f.toks[k].value) {
			return
		}
		f.useTokens(rangeIdx(i+1, k)...)
		i = k
	}
}

// sameShape: a and b are values of the same shape (two addresses, two
// paths), or of none.
func sameShape(a, b string) bool {
	for _, sh := range shapes {
		if sh.fits(a) != sh.fits(b) {
			return false
		}
	}
	return true
}

// sentenceTitle reads on a title written as a sentence ("with the title
// Fix typos in README"): when the word after the capitalised run at last
// is a content word in lower case or a determiner ("Fix the login bug"),
// the title runs to the end of the clause (ten words at most); else it is
// the run ("the title The Great Gatsby by …"). The run alone cut such a
// title to its first word, and the call ran with it. Only a title: the
// words after an e-mail's subject are often its message, written with no
// cue.
func (f *filler) sentenceTitle(last int) int {
	n := last + 1
	if endsClause(f.toks[last].raw) || !f.free(n) || !f.contentWord(n) && !determiners[f.toks[n].word] {
		return last // "subject Lunch and say …": a name, and the sentence goes on
	}
	for k := n; k < len(f.toks) && k-n < 10 && f.free(k); k++ {
		last = k
		if endsClause(f.toks[k].raw) {
			break
		}
	}
	return last
}

func (f *filler) cueBefore(p *property, name []int) bool {
	if p.typ != "integer" && p.typ != "number" {
		return false
	}
	prev := name[0] - 1
	if prev < 0 || f.toks[prev].used {
		return false
	}
	if !f.try(p, f.toks[prev].value) {
		return false
	}
	f.useTokens(append(name, prev)...)
	return true
}

// applyNamedIt reads a value given by a parameter's name used as a verb on
// "it" or "them": "label it bug", "tag them as urgent", "name it Budget",
// one word (a quoted value is the quote rules'), for the parameter of that
// name (labels takes "label") still missing. Such a word need not look
// like a value: the phrase says what it is.
func (f *filler) applyNamedIt() {
	for i := 0; i+2 < len(f.toks); i++ {
		if !f.free(i) || !f.free(i+1) || (f.toks[i+1].word != "it" && f.toks[i+1].word != "them") || endsClause(f.toks[i].raw) || endsClause(f.toks[i+1].raw) {
			continue
		}
		k := i + 2
		if f.free(k) && f.toks[k].word == "as" {
			k++
		}
		if !f.free(k) || fillers[f.toks[k].word] || determiners[f.toks[k].word] {
			continue
		}
		for _, p := range f.s.props {
			if !f.missing(p) || len(p.words) != 1 || !(stringProp(p) || p.typ == "array") {
				continue
			}
			if n := p.words[0]; n != f.toks[i].word && n != f.toks[i].word+"s" {
				continue
			}
			if p.typ == "array" {
				// "label it bug and ui": a list, as after "labelled".
				if f.markedValues(p, i+2) {
					f.useTokens(i, i+1)
					break
				}
				continue
			}
			if f.try(p, f.toks[k].value) {
				f.useTokens(rangeIdx(i, k)...)
				break
			}
		}
	}
}

// verbSlot: token i is the request's verb, its first word after "please",
// "can you" and the like. A parameter named like it is not cued there:
// "text Mom that I'll be late" texts Mom, it is no text "Mom".
func (f *filler) verbSlot(i int) bool { return i == f.verbIndex() }

// carryVerbs move or copy a thing somewhere: after them, "<the thing's
// name> to X" says where it goes, not what it is ("push the sales table to
// Google Sheets"), unlike "set the title to X".
var carryVerbs = setOf("export", "push", "copy", "send", "move", "load", "import", "upload", "save", "write", "sync",
	"publish", "forward", "transfer", "dump", "output", "download", "pipe", "migrate", "ship", "email", "post", "share")

// carriesTo: the request's verb carries a thing somewhere, and p is not
// where it goes (goesTo).
func (f *filler) carriesTo(p *property) bool {
	v := f.verbIndex()
	return v < len(f.toks) && carryVerbs[f.toks[v].word] && !goesTo(p)
}
