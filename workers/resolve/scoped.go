package resolve

import "strings"

// exclusionCues introduce the things to leave out ("excluding
// node_modules and .git", "except tests", "ignoring *.log"); the second
// words of the two-word cues are in exclusionPairs.
var exclusionCues = setOf("excluding", "except", "without", "ignoring", "skipping", "minus")

// exclusionPairs are the two-word cues, by their second word: "but not
// vendor", "other than drafts".
var exclusionPairs = map[string]string{"not": "but", "than": "other"}

// exceptPreps may follow "except" before its items.
var exceptPreps = setOf("for", "in")

// inclusionCues introduce the things to take in ("including docs and
// tests").
var inclusionCues = setOf("including")

// exclusionNames and inclusionNames name a list parameter for what to
// leave out or take in (excludePatterns, ignore_paths, skip_dirs;
// includeGlobs).
var (
	exclusionNames = setOf("exclude", "excludes", "excluded", "exclusion", "exclusions", "ignore", "ignored", "skip")
	inclusionNames = setOf("include", "includes", "included", "inclusion", "inclusions")
)

// applyScopedLists reads the list a cue of exclusion or inclusion
// introduces for the one missing list of strings named for it: the cue
// says which parameter the items are for, and is none of them
// ("excluding node_modules and .git" → exclude…: node_modules, .git).
// "except for" and "except in" read past their preposition. A tool with
// no such parameter is left at once: the rule costs nothing on the rest.
func (f *filler) applyScopedLists() {
	out, in := f.soleMissingList(exclusionNames), f.soleMissingList(inclusionNames)
	if out == nil && in == nil {
		return
	}
	for i := 0; i+1 < len(f.toks); i++ {
		target, cue := in, i
		if c := f.exclusionCue(i); c >= 0 {
			target, cue = out, c
		} else if !inclusionCues[f.toks[i].word] {
			continue
		}
		first := i + 1
		if f.toks[i].word == "except" && exceptPreps[f.toks[first].word] {
			first++ // "except for tests", "except in vendor"
		}
		if target == nil || !f.free(i) || endsClause(f.toks[i].raw) || !f.free(first) || !f.missing(target) {
			continue
		}
		if items, last := f.listAt(first); len(items) > 0 && last >= first && namedItems(items) {
			f.store(target, items)
			f.useTokens(rangeIdx(cue, last)...)
		}
	}
}

// scopeCue: a cue of exclusion or inclusion starts at token j.
func (f *filler) scopeCue(j int) bool {
	w := f.toks[j].word
	return exclusionCues[w] || inclusionCues[w] || j+1 < len(f.toks) && exclusionPairs[f.toks[j+1].word] == w
}

// exclusionCue is the first token of the cue of exclusion that token i
// ends ("but" of "but not"), or -1.
func (f *filler) exclusionCue(i int) int {
	w := f.toks[i].word
	if exclusionCues[w] {
		return i
	}
	if first, ok := exclusionPairs[w]; ok && i > 0 && f.toks[i-1].word == first && f.free(i-1) {
		return i - 1
	}
	return -1
}

// soleMissingList is the one missing array-of-strings parameter (no enum
// of items) whose name has a word of names, or nil.
func (f *filler) soleMissingList(names map[string]bool) *property {
	return f.soleMissingWhere(func(p *property) bool {
		return stringList(p) && fitsName(p, names)
	})
}

// kindNouns say what sort of thing a name is: "*.log files", "dist
// folders".
var kindNouns = setOf("files", "file", "folders", "folder", "directories", "directory", "dirs", "dir")

// namedItems drops the noun of their kind from items that name a thing
// ("*.log files" → *.log) and says whether every item names one: one
// plain word before it describes instead ("hidden files", "test files"),
// and which pattern it means is a guess.
func namedItems(items []any) bool {
	for i, it := range items {
		s, _ := it.(string)
		words := strings.Fields(s)
		n := len(words)
		if n < 2 || !kindNouns[strings.ToLower(words[n-1])] {
			continue
		}
		if n > 2 || !strings.ContainsAny(words[0], "./*_-") {
			return false
		}
		items[i] = words[0]
	}
	return true
}
