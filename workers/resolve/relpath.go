package resolve

import "strings"

// isRelPathLike: a relative path written as one word: segments joined by
// slashes ("docs/notes.txt", "src/", "a/b/c"), or a file name with an
// extension ("notes.txt", "main.go"). Prose has slashed words too
// ("and/or", "km/h", "TCP/IP"), so one slash between two plain words is
// not enough: the path must end in a file name or a slash, or have two
// slashes.
func isRelPathLike(s string) bool {
	if s == "" || isPathLike(s) || isURLLike(s) || isEmailLike(s) || !pathToken(s) {
		return false
	}
	if strings.Contains(s, "//") {
		return false
	}
	segs := strings.Split(s, "/")
	if len(segs) == 1 {
		return fileName(s)
	}
	for _, seg := range segs[:len(segs)-1] {
		if seg == "" {
			return false
		}
	}
	last := segs[len(segs)-1]
	return last == "" || len(segs) >= 3 || fileName(last)
}

// fileName: a name with an extension of one to five lower-case letters
// and digits that starts with a letter ("notes.txt", "a.out",
// "report.v2.md", "2024.csv"), which no number ("3.5kg", "v1.2") or
// abbreviation ("e.g") has.
func fileName(s string) bool {
	dot := strings.LastIndexByte(s, '.')
	if dot <= 0 || dot == len(s)-1 {
		return false
	}
	stem, ext := s[:dot], s[dot+1:]
	return len(ext) <= 5 && (len(stem) >= 2 || len(ext) >= 2) && extWord(ext)
}

// extWord: s can be a file extension, or one part of it: lower-case
// letters and digits, a letter first.
func extWord(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// isGlobLike: a file-name pattern written as one word ("*.txt",
// "report-??.csv", "src/**/*.go", "[abc]*"): a wildcard that prose does
// not put inside a word.
func isGlobLike(s string) bool {
	if s == "" || isURLLike(s) || strings.ContainsAny(s, " \t") {
		return false
	}
	if strings.Contains(s, "*") {
		return len(s) > 1
	}
	// A question mark that ends the word ends a sentence ("what?", "really?!").
	inner := strings.TrimRight(s, "?!.")
	return strings.Contains(inner, "?") || strings.Contains(s, "[") && strings.Contains(s, "]") && strings.ContainsAny(s, ".*")
}

// globNames are the words of parameter names that take a file-name
// pattern. A parameter for what to leave out (excludePatterns) is not
// one: the pattern of a search is what to find.
var globNames = setOf("pattern", "patterns", "glob", "globs", "wildcard", "mask", "include")

// globTarget: p takes the pattern of what to find, not of what to skip.
// describesGlob: a parameter whose description says it takes a glob
// ("Glob pattern the name must match"), whatever its name. Its words, not
// its letters: a "Globally unique bucket name" takes no pattern.
func describesGlob(p *property) bool {
	return describesAny(p, globWords)
}

// globWords say, in a description, that a parameter takes a pattern.
var globWords = setOf("glob", "globs", "globbing", "wildcard", "wildcards")

func globTarget(p *property) bool {
	for _, w := range p.words {
		if w == "exclude" || w == "excludes" || w == "ignore" || w == "skip" {
			return false
		}
	}
	return true
}
