package resolve

import "strings"

// heldNames name a parameter for what a file, note or document holds.
var heldNames = setOf("content", "contents", "text", "body", "data")

// contentNouns, after "with" (and "the"), introduce what a thing holds:
// "with the text …", "with content …".
var contentNouns = setOf("text", "content", "contents", "words", "body")

// contentVerbs, after that or which, introduce what a thing says: "a note
// that says call Bo", "a sign which reads closed".
var contentVerbs = setOf("says", "reads")

// applyContents reads what the request's thing is to hold, after it and
// a cue ("create /tmp/todo.txt containing buy milk", "a note that says
// call Bo", "a file with the text hello"), verbatim to the end of the
// request, for the one missing parameter named for content (content,
// text, body, data …), required or not; an optional one only with nothing
// required missing ("find notes containing milk" may be the search's
// query, a required one). The cue must follow the verb's
// object: right after the verb it is the object ("containing" opens no
// content then). Every word to the end must be free: a value another
// rule took inside says the clause is not all content.
func (f *filler) applyContents() {
	target := f.soleMissingOf(func(p *property) bool { return fitsName(p, heldNames) }, false)
	if target == nil || !target.required && f.requiredMissing() {
		return
	}
	for i := f.verbIndex() + 2; i < len(f.toks); i++ {
		first := f.contentCue(i)
		if first < 0 || first >= len(f.toks) {
			continue
		}
		last := len(f.toks) - 1
		for j := i; j <= last; j++ {
			if !f.free(j) {
				return
			}
		}
		v := strings.TrimRight(strings.TrimSpace(f.text[f.toks[first].start:f.toks[last].end]), ".!]")
		if v != "" && f.try(target, v) {
			f.useTokens(rangeIdx(i, last)...)
		}
		return
	}
}

// contentCue is the first token of the content that the cue at token i
// introduces, or -1: containing/contains, that/which says or reads, with
// (the) text/content/words.
func (f *filler) contentCue(i int) int {
	at := func(k int, words map[string]bool) bool { return f.free(k) && words[f.toks[k].word] }
	switch w := f.toks[i].word; {
	case endsClause(f.toks[i].raw):
		return -1
	case w == "containing" || w == "contains":
		return i + 1
	case (w == "that" || w == "which") && at(i+1, contentVerbs):
		return i + 2
	case w == "with":
		k := i + 1
		if f.free(k) && f.toks[k].word == "the" {
			k++
		}
		if at(k, contentNouns) && !endsClause(f.toks[k].raw) {
			return k + 1
		}
	}
	return -1
}
