package resolve

// sortKinds are the keys a listing is ordered by, by the words that name
// them in a request ("by size", "by date") or in an enum member (size,
// mtime, lastModified, created_at, name).
var sortKinds = map[string]string{
	"size": "size", "sizes": "size", "bytes": "size", "length": "size",
	"date": "time", "time": "time", "modified": "time", "modification": "time", "mtime": "time",
	"created": "time", "creation": "time", "updated": "time", "age": "time", "timestamp": "time",
	"name": "name", "names": "name", "filename": "name", "alphabetical": "name", "alphabetically": "name",
}

// sortSuperlatives put a listing in order when "first" follows ("biggest
// first", "the newest files first"): the key they order by.
var sortSuperlatives = map[string]string{
	"biggest": "size", "largest": "size", "smallest": "size", "heaviest": "size",
	"newest": "time", "oldest": "time", "latest": "time", "earliest": "time", "recent": "time", "recently": "time",
}

// applySortKeys reads the key a request orders a listing by, for the one
// missing enum parameter named for sorting, as its one member of that
// kind: a superlative and "first" ("biggest first" → size, "newest
// first" → modified), "by" and the key ("by size", "sorted by date"), or
// "alphabetically" (name). Left out, the parameter's default (often name)
// would run in the wrong order. Keys of two kinds, or a kind two members
// share, place nothing. A tool with no sort parameter is left at once.
func (f *filler) applySortKeys() {
	target := f.sortParam()
	if target == nil {
		return
	}
	kind, cue := "", []int(nil)
	for i := range f.toks {
		k, last := f.sortCue(i)
		if k == "" {
			continue
		}
		if kind != "" && kind != k {
			return
		}
		kind, cue = k, append(cue, rangeIdx(i, last)...)
	}
	if m := sortMember(target, kind); m != "" && f.try(target, m) {
		f.useTokens(cue...)
	}
}

// sortParam is the one missing enum parameter named for sorting (sortBy,
// order_by: sortNames), or nil.
func (f *filler) sortParam() *property {
	return f.soleMissingWhere(func(p *property) bool { return len(p.enum) > 0 && fitsName(p, sortNames) })
}

// sortCue is the kind of key the words at token i order by, and the last
// of those words; "" when they order by none. A superlative counts with
// "first" at most three words on ("the largest files first").
func (f *filler) sortCue(i int) (string, int) {
	if !f.free(i) {
		return "", 0
	}
	w := f.toks[i].word
	if k := sortSuperlatives[w]; k != "" {
		for j := i + 1; j < len(f.toks) && j <= i+3 && f.free(j); j++ {
			if f.toks[j].word == "first" {
				return k, j
			}
			if endsClause(f.toks[j].raw) {
				break
			}
		}
		return "", 0
	}
	if w == "alphabetically" {
		return "name", i
	}
	if w == "by" && f.free(i+1) && !endsClause(f.toks[i].raw) {
		if k := sortKinds[f.toks[i+1].word]; k != "" {
			return k, i + 1
		}
	}
	return "", 0
}

// sortMember is p's one enum member of the kind, "" when none or several
// are.
func sortMember(p *property, kind string) string {
	if kind == "" {
		return ""
	}
	member := ""
	for _, e := range p.enum {
		s, ok := e.(string)
		if !ok || !memberOfKind(s, kind) {
			continue
		}
		if member != "" {
			return ""
		}
		member = s
	}
	return member
}

// memberOfKind: a word of the enum member names a key of the kind
// (lastModified → modified → time).
func memberOfKind(member, kind string) bool {
	for _, w := range nameWords(member) {
		if sortKinds[w] == kind {
			return true
		}
	}
	return false
}
