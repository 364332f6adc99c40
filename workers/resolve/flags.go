package resolve

import (
	"strconv"
	"strings"
)

// flagNegations before a flag's words turn it off: "no dry run",
// "without versioning", "don't force it".
var flagNegations = setOf("no", "not", "without", "don't", "dont", "never", "disable", "skip")

// flagStates after a flag's words say which way it is set.
var flagStates = map[string]bool{"enabled": true, "on": true, "true": true, "disabled": false, "off": false, "false": false}

// applyFlags is the flags rule: a boolean parameter whose name the
// request writes, its words in order, a determiner between them allowed
// ("dry run", "a draft pull request", "delete the branch", "force it",
// "with versioning enabled"), is set: true, false after a negation ("no
// dry run", "without versioning") or before disabled/off. Nothing else
// reads such words as a value, so the switch said was dropped, without a
// word, and the call ran with the default. The request's verb alone is
// no flag ("update the record" sets no update), nor is a question about
// how things are ("is the door locked").
func (f *filler) applyFlags() {
	if f.asksState() {
		return // "is the shed door locked": asked, not set
	}
	for _, p := range f.s.props {
		if p.typ != "boolean" || !f.missing(p) || len(p.words) == 0 || len(p.words) == 1 && particleFlag(p.words[0]) {
			continue
		}
		for i := range f.toks {
			if last := f.flagAt(p, i); last >= 0 {
				f.setFlag(p, i, last)
				break
			}
		}
	}
}

// particleFlag: a flag named by a preposition or a particle ("on",
// "off", "up") is a state the states rule reads as one, by its verb: "the
// lamp on the porch" turns nothing on.
func particleFlag(w string) bool {
	return shortPreps[w] || leftoverFraming[w]
}

// flagAt matches p's name at token i: the index of its last word, or -1.
func (f *filler) flagAt(p *property, i int) int {
	if !f.free(i) {
		return -1
	}
	if w := f.toks[i].word; strings.TrimSuffix(w, "'s") != p.words[0] {
		if len(p.words) > 1 && strings.Contains(w, "-") && w == strings.Join(p.words, "-") {
			return i // "dry-run"
		}
		return -1
	}
	if len(p.words) == 1 && verbs[f.toks[i].word] && i == f.verbIndex() {
		return -1
	}
	k := i
	for n, w := range p.words {
		for n > 0 && f.free(k) && determiners[f.toks[k].word] {
			k++
		}
		if !f.free(k) || strings.TrimSuffix(f.toks[k].word, "'s") != w || n < len(p.words)-1 && endsClause(f.toks[k].raw) {
			return -1
		}
		k++
	}
	return k - 1
}

// setFlag sets p from its name at tokens i..last and the words around it
// that say which way.
func (f *filler) setFlag(p *property, i, last int) {
	on := true
	used := rangeIdx(i, last)
	if i > 0 && f.free(i-1) && flagNegations[f.toks[i-1].word] {
		on = false
		used = append(used, i-1)
	}
	if n := last + 1; !endsClause(f.toks[last].raw) && f.free(n) {
		if v, ok := flagStates[strings.Trim(f.toks[n].word, ".,;!?")]; ok {
			on = on && v
			used = append(used, n)
		}
	}
	if f.try(p, strconv.FormatBool(on)) {
		f.useTokens(used...)
	}
}
