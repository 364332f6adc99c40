package resolve

import (
	"strings"
	"unicode"
)

// numberedNames end the name of a parameter that says which thing by its
// number (pull_number, issue_number, job_id).
var numberedNames = setOf("number", "num", "no", "id")

// numberedProp: p takes the number a thing is known by, an integer or
// plain text whose name ends in number or id.
func numberedProp(p *property) bool {
	if len(p.words) == 0 || len(p.enum) > 0 || !numberedNames[p.words[len(p.words)-1]] {
		return false
	}
	return p.typ == "integer" || stringProp(p)
}

// applyNumbered is the numbered rule: a thing's number written as such,
// "#123", or after the initials of the tool's thing ("PR 310" on a pull
// request tool, "MR 12" on a merge request's), to the one missing
// parameter for that number (pull_number, job_id). "#123" is no number
// to the other rules, and "PR 310" a code like "VGA 1", so both were
// dropped without a word.
func (f *filler) applyNumbered() {
	target := f.soleMissingWhere(numberedProp) // two: which thing's number is not said
	if target == nil {
		return
	}
	for i := range f.toks {
		if !f.free(i) {
			continue
		}
		v, ok := hashDigits(f.toks[i].value)
		from := i
		if !ok && f.toolInitials(i) && f.free(i+1) {
			v, ok = hashDigits("#" + strings.TrimPrefix(f.toks[i+1].value, "#"))
			i++
		}
		if !ok || !f.try(target, v) {
			continue
		}
		if from > 0 && f.free(from-1) && f.toolInitials(from-1) {
			from-- // "PR #123"
		}
		f.useTokens(rangeIdx(from, i)...)
		return
	}
}

// toolInitials: token i, in capitals, is the initials of words next to
// each other in the tool's id ("PR" for gh/merge_pull_request): the
// tool's thing named short, not a code of its own.
func (f *filler) toolInitials(i int) bool {
	raw, initials := f.toks[i].value, f.s.idInitials
	if len(raw) < 2 || len(raw) > 3 || !capsCode(raw) {
		return false
	}
	for s := 0; s+len(raw) <= len(initials); s++ {
		match := true
		for k := 0; k < len(raw) && match; k++ {
			match = initials[s+k] == raw[k]+'a'-'A'
		}
		if match {
			return true
		}
	}
	return false
}

// initialsOf is the first byte of each word of a tool's id, lower case
// (gh/merge_pull_request → "gmpr"), for toolInitials. The id is split
// once per manifest (toolSchema.idInitials), not for every word in
// capitals of every request.
func initialsOf(id string) string {
	words := strings.FieldsFunc(strings.ToLower(id), func(r rune) bool { return !unicode.IsLetter(r) })
	initials := make([]byte, len(words))
	for i, w := range words {
		initials[i] = w[0]
	}
	return string(initials)
}
