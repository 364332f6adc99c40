package resolve

// homeDirs are the folders of a user's home that requests name by their
// role ("my downloads folder", "the documents directory"), as the XDG user
// directories and macOS name them, with the path a shell writes for each
// (the executor expands "~" to the home of the user tools run as).
var homeDirs = map[string]string{
	"home": "~", "downloads": "~/Downloads", "documents": "~/Documents", "desktop": "~/Desktop",
	"pictures": "~/Pictures", "music": "~/Music", "videos": "~/Videos",
}

// folderNouns say a word before them names a folder.
var folderNouns = setOf("folder", "directory", "dir")

// applyHomeDirs is rule home_dirs: a home folder named by its role, with
// "my" before it or a folder noun after it ("my downloads", "the
// documents folder", "my home directory"; "home" only with the noun), to
// the first path parameter missing. "the music" or "my home" alone name
// no folder.
func (f *filler) applyHomeDirs() {
	if len(f.s.shapeTakers) <= pathShape {
		return // a tool without parameters
	}
	var target *property
	for _, p := range f.s.shapeTakers[pathShape] {
		if f.missing(p) && stringProp(p) {
			target = p
			break
		}
	}
	if target == nil {
		return
	}
	for i := range f.toks {
		path, ok := homeDirs[f.toks[i].word]
		if !ok || !f.free(i) {
			continue
		}
		first, last := i, i
		if f.free(i-1) && f.toks[i-1].word == "my" && !endsClause(f.toks[i-1].raw) {
			first = i - 1
		}
		if !endsClause(f.toks[i].raw) && f.free(i+1) && folderNouns[f.toks[i+1].word] {
			last = i + 1
		}
		if last == i && (first == i || f.toks[i].word == "home") {
			continue
		}
		if f.try(target, path) {
			f.useTokens(rangeIdx(first, last)...)
			return
		}
	}
}
