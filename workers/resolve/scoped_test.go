package resolve

import "testing"

var (
	scOutline = manifest("t/outline", "Outline folder", `{"type":"object","required":["root"],"properties":{
		"root":{"type":"string"},"excludeGlobs":{"type":"array","items":{"type":"string"}}}}`)
	scMirror = manifest("t/mirror", "Sync storage", `{"type":"object","required":["bucket"],"properties":{
		"bucket":{"type":"string"},"skip_prefixes":{"type":"array","items":{"type":"string"}},
		"include_prefixes":{"type":"array","items":{"type":"string"}}}}`)
	scTags = manifest("t/tag_post", "Tag post", `{"type":"object","required":["post"],"properties":{
		"post":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}}}}`)
	scEntries = manifest("t/entries", "List entries", `{"type":"object","required":["dir"],"properties":{
		"dir":{"type":"string"},"orderBy":{"type":"string","enum":["name","size","mtime"]}}}`)
	scAlbum = manifest("t/album", "Browse album", `{"type":"object","properties":{
		"album":{"type":"string"},"sort":{"type":"string","enum":["title","created_at"]}}}`)
	scRanked = manifest("t/ranked", "Rank entries", `{"type":"object","required":["dir"],"properties":{
		"dir":{"type":"string"},"order":{"type":"string","enum":["asc","desc"]}}}`)
	scSave = manifest("t/save", "Save", `{"type":"object","required":["path","body"],"properties":{
		"path":{"type":"string"},"body":{"type":"string"}}}`)
	scNotes = manifest("t/notes", "Find notes", `{"type":"object","required":["query"],"properties":{
		"query":{"type":"string"},"text":{"type":"string"}}}`)
	scSpeak = manifest("t/speak", "Read aloud", `{"type":"object","required":["text"],"properties":{
		"text":{"type":"string"}}}`)
	scJot = manifest("t/jot", "Jot line", `{"type":"object","required":["line"],"properties":{
		"line":{"type":"string"},"pad":{"type":"string"}}}`)
	scVolume = manifest("t/volume", "Volume", `{"type":"object","required":["direction"],"properties":{
		"direction":{"type":"string","enum":["up","down"]}}}`)
)

func init() {
	ruleCases["scoped_lists"] = []ruleCase{
		{scOutline, "outline /srv/app excluding .cache", M{"root": "/srv/app", "excludeGlobs": []any{".cache"}}},
		{scMirror, "sync bucket=photos but not tmp/", M{"bucket": "photos", "skip_prefixes": []any{"tmp/"}}},
	}
	ruleCases["sort_keys"] = []ruleCase{
		{scEntries, "list entries of /var/log, largest first", M{"dir": "/var/log", "orderBy": "size"}},
		{scEntries, "list entries of /var/log, newest first", M{"dir": "/var/log", "orderBy": "mtime"}},
	}
	ruleCases["contents"] = []ruleCase{
		{scSave, "save /home/ann/list.txt containing eggs and rice", M{"path": "/home/ann/list.txt", "body": "eggs and rice"}},
	}
	ruleCases["particles"] = []ruleCase{
		{scSpeak, "read out good night", M{"text": "good night"}},
	}
}

// TestScopedLists: a cue of exclusion or inclusion says which list its
// items go to, and is none of them; a description is no pattern.
func TestScopedLists(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"excluding", scOutline, "outline /srv/app excluding dist, build and .git", M{"root": "/srv/app", "excludeGlobs": []any{"dist", "build", ".git"}}},
		{"except for", scOutline, "outline /srv/app except for fixtures", M{"root": "/srv/app", "excludeGlobs": []any{"fixtures"}}},
		{"other than", scOutline, "outline /srv/app other than coverage", M{"root": "/srv/app", "excludeGlobs": []any{"coverage"}}},
		{"kind noun dropped", scOutline, "outline /srv/app ignoring *.tmp files", M{"root": "/srv/app", "excludeGlobs": []any{"*.tmp"}}},
		{"including", scMirror, "sync bucket=logs including 2024/ and 2025/", M{"bucket": "logs", "include_prefixes": []any{"2024/", "2025/"}}},
		{"both", scMirror, "sync bucket=logs including raw/ but not raw/old/", M{"bucket": "logs", "include_prefixes": []any{"raw/"}, "skip_prefixes": []any{"raw/old/"}}},
		// Negatives.
		{"a description", scOutline, "outline /srv/app without hidden files", M{"root": "/srv/app"}},
		{"no items", scOutline, "outline /srv/app, excluding", M{"root": "/srv/app"}},
		{"no inclusion list", scOutline, "outline /srv/app including docs", M{"root": "/srv/app"}},
		{"no list named for it", scTags, "tag post 42 with news and sport, excluding drafts", M{"post": "42", "tags": []any{"news", "sport"}}},
	})
}

// TestSortKeys: the key a listing is ordered by picks the sort
// parameter's member of that kind; two kinds, or none it has, place
// nothing.
func TestSortKeys(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"sorted by", scEntries, "list entries of /opt sorted by size", M{"dir": "/opt", "orderBy": "size"}},
		{"by date", scEntries, "list entries of /opt by date", M{"dir": "/opt", "orderBy": "mtime"}},
		{"superlative and noun", scEntries, "list entries of /opt, the smallest files first", M{"dir": "/opt", "orderBy": "size"}},
		{"alphabetically", scEntries, "list entries of /opt alphabetically", M{"dir": "/opt", "orderBy": "name"}},
		{"member of words", scAlbum, "browse the Lisbon album, oldest first", M{"album": "Lisbon", "sort": "created_at"}},
		// Negatives.
		{"two kinds", scEntries, "list entries of /opt by date, biggest first", M{"dir": "/opt"}},
		{"no first", scEntries, "list the biggest entries of /opt", M{"dir": "/opt"}},
		{"no member of the kind", scAlbum, "browse the Lisbon album, biggest first", M{"album": "Lisbon"}},
		{"a direction is no key", scRanked, "rank entries of /opt, biggest first", M{"dir": "/opt"}},
	})
}

// TestContents: what a file is to hold follows it and its cue, to the
// end; no cue, no content, and a search's pattern is no content.
func TestContents(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"that says", scSave, "save /tmp/n.txt that says back at 5", M{"path": "/tmp/n.txt", "body": "back at 5"}},
		{"with the text", scSave, "save /tmp/n.txt with the text see you soon.", M{"path": "/tmp/n.txt", "body": "see you soon"}},
		{"with content", scSave, "save /tmp/n.txt with content ok", M{"path": "/tmp/n.txt", "body": "ok"}},
		// Negatives.
		{"cue ends the request", scSave, "save /tmp/n.txt containing", M{"path": "/tmp/n.txt"}},
	})
	// An optional text waits while a required parameter is missing: the
	// words may be the search's query.
	checkGuessesOn(t, scNotes, []string{"text"}, []textCase{{"find notes containing milk", M{}}})
}

// TestParticles: a phrasal verb's particle is the verb's, unless a rule
// placed it as a value; a word that merely starts like one stays.
func TestParticles(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"verb_object reads past it", scJot, "jot down buy stamps", M{"line": "buy stamps"}},
		{"verb not the tool's", scSpeak, "print out see you at noon", M{"text": "see you at noon"}},
		// Negatives.
		{"a state", scVolume, "turn up the volume", M{"direction": "up"}},
		{"no particle", scSpeak, "read aloudness please", M{"text": "aloudness"}},
	})
}
