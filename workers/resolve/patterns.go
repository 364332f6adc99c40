package resolve

import (
	"strings"
	"unicode"
)

// A tool that finds things by a pattern (files/find's name glob) is the
// easiest to run wrongly: its pattern has a match-everything default, so a
// request whose filter is dropped still runs and answers confidently with
// everything. Two readings keep the filter:
//
//   - a file name right after "named", "called" or "matching" is the
//     pattern itself ("files named notes.txt", "files named Makefile"): a
//     name is a glob that matches itself (rule named_files);
//   - a word that narrows the thing the tool is named for, written right
//     before it ("the json files", "empty folders"), is a value the
//     request states: when a filter parameter the request left unset
//     would take it (filterParam), it is reported unmapped, so the call
//     does not run without it (qualifier, read by unmapped). It is not turned into a pattern:
//     "json files" may be *.json, but "python files" is not *.python and
//     "large files" no pattern at all, and a wrong guess would run.

// applyNamedFiles is rule named_files: a file name after a name cue to a
// glob parameter the request left unset; a quoted one whole, spaces and
// all ("files named 'q3 report.pdf'").
func (f *filler) applyNamedFiles() {
	for i := range f.toks {
		if !f.free(i) || !f.afterNameCue(i) {
			continue
		}
		if v := f.toks[i].value; (fileName(v) || nameWord(v)) && f.tryGlob(v) {
			f.toks[i].used = true
		}
	}
	for i, pr := range f.pairs {
		if pr.key != "" || !pr.quoted || f.pairUsed[i] || !fileName(pr.value) {
			continue
		}
		cue := f.tokenFrom(pr.start) - 1
		if f.free(cue) && nameCues[f.toks[cue].word] && f.tryGlob(pr.value) {
			f.pairUsed[i] = true
		}
	}
}

// nameWord: v is written as a file's whole name without an extension
// ("Makefile", "README", "docker-compose", "id_rsa"): letters, digits, '-'
// and '_', a letter first, and a capital first or a '-', '_' or digit
// within. A plain lower-case word after "called" may say what the files
// are about ("files called invoices") and is reported, not run as an
// exact name.
func nameWord(v string) bool {
	if v == "" || !unicode.IsLetter(rune(v[0])) {
		return false
	}
	marked := unicode.IsUpper(rune(v[0]))
	for _, r := range v {
		switch {
		case r == '-' || r == '_' || unicode.IsDigit(r):
			marked = true
		case !unicode.IsLetter(r):
			return false
		}
	}
	return marked
}

// tryGlob puts v in the first glob parameter the request left unset.
func (f *filler) tryGlob(v string) bool {
	for _, p := range f.s.props {
		if f.missing(p) && globParam(p) && f.try(p, v) {
			return true
		}
	}
	return false
}

// applyExtensions is rule extensions: a file extension written as such
// (".txt files", "ending in .log") to a glob parameter the request left
// unset, as the pattern of every name with it ("*.txt"). The leading dot
// makes it an extension, where "txt files" may be a word.
func (f *filler) applyExtensions() {
	for i := range f.toks {
		if !f.free(i) {
			continue
		}
		v := f.toks[i].value
		if !extension(v) {
			continue
		}
		for _, p := range f.s.props {
			if f.missing(p) && globParam(p) && f.try(p, "*"+v) {
				f.toks[i].used = true
				break
			}
		}
	}
}

// extension: s is a dot and a file extension (".txt", ".tar.gz"): letters
// and digits, a letter first, at most 10 of them in each part.
func extension(s string) bool {
	if len(s) < 2 || s[0] != '.' {
		return false
	}
	for _, part := range strings.Split(s[1:], ".") {
		if len(part) > 10 || !extWord(part) {
			return false
		}
	}
	return true
}

// globParam: p takes the pattern of what to find, by its name or its
// description.
func globParam(p *property) bool {
	return (p.typ == "string" || p.typ == "") && len(p.enum) == 0 &&
		(fitsName(p, globNames) || describesGlob(p)) && globTarget(p)
}

// filterNames are the words of parameters that say which things a tool
// finds or lists: its pattern, filter, kind or extension.
var filterNames = setOf("filter", "filters", "type", "types", "kind", "extension", "extensions", "ext", "match")

// filterParam: p narrows what the tool finds: a glob parameter, or one
// named for a filter, a kind or an extension.
func filterParam(p *property) bool {
	return globParam(p) || stringProp(p) && fitsName(p, filterNames)
}

// quantifiers say how many of a thing, not which.
var quantifiers = setOf("all", "every", "each", "many", "more", "most", "few", "several", "other", "others",
	"both", "no", "only", "such", "own", "various", "whole", "entire", "top", "first", "last", "much", "very", "too", "so")

// qualifier: token i is a content word written right before a plural of
// the tool's own name ("json" in "find the json files" for Find files):
// it says which of those things the request wants.
func (f *filler) qualifier(i int) bool {
	if i+1 >= len(f.toks) || f.sentenceStart(i) {
		return false
	}
	t, next := f.toks[i], f.toks[i+1]
	// A plural: the things themselves ("files"), not a word of the name
	// that an adjective or adverb may come before ("how much free").
	if !f.tool[next.word] || !strings.HasSuffix(next.word, "s") || verbs[next.word] || fillers[next.word] ||
		f.nextStart(t.end) != next.start || endsClause(t.raw) {
		return false
	}
	w := t.word
	if commonWord(w) || cueWords[w] || nameCues[w] || quantifiers[w] {
		return false
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return w != ""
}
