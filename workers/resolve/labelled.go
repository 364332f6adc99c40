package resolve

import (
	"slices"
	"strings"
)

// applyLabelledFields reads a request that lists two or more of the tool's
// text parameters by name, each followed by its value: "with subject
// Weekly report and body the numbers are attached", "with the subject Hi
// and the body see you". Each value runs from after its name (and "as" or
// "is") to the next name, less the "and", "the" or comma joining them, or
// to the end of the request, within one sentence. A name is a label only
// where a field can start: after "with", "and", a determiner, a comma or a
// colon. It takes two such fields, each with a value, to say the request
// is a list of fields: one name alone is left to the cues ("the body of
// the report"), and names in a row without values ("the subject and body
// for the meeting") are a question about them, not a list.
func (f *filler) applyLabelledFields() {
	type field struct {
		p           *property
		at, open    int // the name's token; the first of the words joining it to the field before
		first, last int // the value's tokens
	}
	labels := f.fieldLabels()
	if len(labels) < 2 {
		return
	}
	var fields []field
	seen := map[*property]bool{}
	for i := 1; i+1 < len(f.toks); i++ {
		if !f.free(i) || !f.free(i+1) {
			continue
		}
		p := labels[f.toks[i].word]
		if p == nil || seen[p] {
			continue
		}
		open := i
		for open-1 >= 0 && f.free(open-1) && fieldJoiners[f.toks[open-1].word] && !endsClause(f.toks[open-1].raw) {
			open--
		}
		if prev := f.toks[i-1].raw; open == i && !strings.HasSuffix(prev, ",") && !strings.HasSuffix(prev, ":") {
			continue
		}
		seen[p] = true
		fields = append(fields, field{p: p, at: i, open: open})
	}
	var valid []field
	for k, fl := range fields {
		fl.first, fl.last = fl.at+1, len(f.toks)-1
		if k+1 < len(fields) {
			fl.last = fields[k+1].open - 1
		}
		// The rest of the name ("payment method"), then "as" or "is".
		for fl.first <= fl.last && (slices.Contains(fl.p.words, f.toks[fl.first].word) || f.toks[fl.first].word == "as" || f.toks[fl.first].word == "is") {
			fl.first++
		}
		if fl.first > fl.last || fieldValueBlockers[f.toks[fl.first].word] || !f.oneSentence(fl.first, fl.last) {
			continue
		}
		valid = append(valid, fl)
	}
	if len(valid) < 2 {
		return
	}
	for _, fl := range valid {
		v := strings.TrimSpace(f.text[f.toks[fl.first].start:f.toks[fl.last].end])
		v = strings.TrimSpace(strings.TrimRight(v, ",;:.!]"))
		if v != "" && f.try(fl.p, v) {
			f.useTokens(rangeIdx(fl.open, fl.last)...)
		}
	}
}

// oneSentence: tokens first to last are free and no sentence ends before
// the last.
func (f *filler) oneSentence(first, last int) bool {
	for j := first; j <= last; j++ {
		if !f.free(j) {
			return false
		}
		if r := f.toks[j].raw; j < last && (strings.HasSuffix(r, ".") && !isAbbrev(r) || strings.HasSuffix(r, "!") || strings.HasSuffix(r, "?")) {
			return false
		}
	}
	return true
}

// fieldLabels are the words that name a missing text parameter as a
// field's label (its one-word name or head noun, as namedNouns reads
// them), the first parameter a word names taking it.
func (f *filler) fieldLabels() map[string]*property {
	labels := map[string]*property{}
	for _, p := range f.s.props {
		if !f.missing(p) || !stringProp(p) || len(p.enum) > 0 || isIDProp(p) {
			continue
		}
		for w := range namedNouns(p) {
			if labels[w] == nil {
				labels[w] = p
			}
		}
	}
	return labels
}

// fieldJoiners join a field to the one before it, or open the list:
// "with subject …", "and the body …".
var fieldJoiners = setOf("with", "and", "the", "a", "an", "its", "his", "her", "their", "my", "your", "our")

// fieldValueBlockers cannot open a field's value: after them the name was
// not a label ("the subject and body for the meeting").
var fieldValueBlockers = setOf("for", "in", "on", "from", "with", "by", "about", "of", "to", "at", "and", "or")
