package resolve

import "strings"

// applyNamedPhrase reads a value written in plain lower-case words right
// after its parameter's name used as a noun: "echo the message hello world"
// → message "hello world", "reverse the word stressed" → word "stressed",
// "list the directory src" → path "src" (a path parameter is named by
// file, directory, folder and path too). The name must follow a
// determiner, so that it reads as a noun and not a verb ("message me"),
// and the value must run to the end of its clause, so that it is not the
// start of more prose ("the word count of the essay"). The free-text
// parameter may take a long value; any other takes a few content words, a
// path one word.
func (f *filler) applyNamedPhrase(free *property) {
	for _, p := range f.s.props {
		if !p.required || !f.missing(p) || !stringProp(p) || isIDProp(p) || p.date || isTimeProp(p) {
			continue
		}
		nouns := namedNouns(p)
		if len(nouns) == 0 {
			continue
		}
		for i := 1; i < len(f.toks); i++ {
			if !f.free(i) || !f.free(i-1) || !determiners[f.toks[i-1].word] || !nouns[f.toks[i].word] || endsClause(f.toks[i].raw) {
				continue
			}
			if f.namedValue(p, i, p == free) {
				break
			}
		}
	}
}

// namedNouns are the words that name p in prose: its whole name when it is
// one word, its head noun (the word before _name, _type …), and for a path
// parameter the nouns of what a path points at.
func namedNouns(p *property) map[string]bool {
	m := map[string]bool{}
	if len(p.words) == 1 && !nameSuffixes[p.words[0]] {
		m[p.words[0]] = true
	}
	for _, h := range heads(p) {
		if !softSuffixes[h] {
			m[h] = true
		}
	}
	if pathParam(p) {
		for w := range pathNouns {
			m[w] = true
		}
	}
	return m
}

// pathNouns name what a path parameter points at.
var pathNouns = setOf("file", "directory", "folder", "dir", "path")

// pathParam: a parameter named for a path (path, file_path, dir …).
func pathParam(p *property) bool {
	return fitsName(p, pathNames)
}

// maxNamedWords bounds a named value that is not free text: a few words
// are a value, more are prose.
const maxNamedWords = 3

// namedValue takes the tokens after the name at token i, to the end of the
// clause, as p's value.
func (f *filler) namedValue(p *property, i int, long bool) bool {
	k := i + 1
	for f.free(k) && (f.toks[k].word == "named" || f.toks[k].word == "called") {
		k++
	}
	if !f.free(k) {
		return false
	}
	first := f.toks[k].word
	if fillers[first] || determiners[first] || prepositions[first] || connectors[first] || cueWords[first] || pronouns[first] || discourse[first] {
		return false
	}
	// A value longer than the parameter may take is no value, so the scan
	// stops one word past that: a long text of "the word x the word y …"
	// stays linear.
	limit := len(f.toks)
	switch {
	case pathParam(p):
		limit = 2
	case !long:
		limit = maxNamedWords + 1
	}
	last := k
	for last-k+1 < limit && !endsClause(f.toks[last].raw) && f.free(last+1) && f.toks[last+1].start == f.nextStart(f.toks[last].end) {
		last++
	}
	if !endsClause(f.toks[last].raw) && (last+1 < len(f.toks) || strings.Trim(f.text[f.toks[last].end:], " \t\n.!?") != "") {
		// Something used or hidden (a quoted value, a date) interrupts it.
		return false
	}
	switch n := last - k + 1; {
	case pathParam(p):
		if n != 1 || !pathToken(f.toks[k].value) {
			return false
		}
	case !long:
		if n > maxNamedWords {
			return false
		}
		for j := k; j <= last; j++ {
			if !f.contentWord(j) {
				return false
			}
		}
	}
	if !f.try(p, f.spanValue(k, last)) {
		return false
	}
	f.useTokens(rangeIdx(i, last)...)
	return true
}

// nextStart is where the next word after byte offset at begins: tokens
// that are adjacent in the text, with nothing hidden between them.
func (f *filler) nextStart(at int) int {
	return skipSpaces(f.text, at)
}

// pathToken: one word that can be a file or directory name: letters,
// digits and . _ - / ~, with a letter or digit in it.
func pathToken(s string) bool {
	if s == "" || isURLLike(s) {
		return false
	}
	alnum := false
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			alnum = true
		case strings.ContainsRune("._-/~", r):
		default:
			return false
		}
	}
	return alnum
}
