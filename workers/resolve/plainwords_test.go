package resolve

import (
	"strings"
	"testing"
)

// Tools shaped like those of the real MCP reference servers
// (server-everything, server-filesystem), whose parameters are named a, b,
// message, path, with terse or no descriptions.
var (
	getSum = manifest("everything/get-sum", "get-sum", `{"type":"object","required":["a","b"],"properties":{
		"a":{"type":"number","description":"First number"},"b":{"type":"number","description":"Second number"}}}`)
	echoTool = manifest("everything/echo", "echo", `{"type":"object","required":["message"],"properties":{
		"message":{"type":"string","description":"Message to echo"}}}`)
	reverse = manifest("text/reverse", "reverse", `{"type":"object","required":["word"],"properties":{
		"word":{"type":"string","description":"The word to reverse"}}}`)
	listDir  = manifest("fs/list_directory", "list_directory", `{"type":"object","required":["path"],"properties":{"path":{"type":"string"}}}`)
	readText = manifest("fs/read_text_file", "read_text_file", `{"type":"object","required":["path"],"properties":{
		"head":{"type":"number","description":"If provided, returns only the first N lines of the file"},"path":{"type":"string"},
		"tail":{"type":"number","description":"If provided, returns only the last N lines of the file"}}}`)
	mailTo = manifest("m/send", "send_mail", `{"type":"object","required":["to"],"properties":{
		"cc":{"type":"array","items":{"type":"string"}},"subject":{"type":"string"},"to":{"type":"array","items":{"type":"string"}}}}`)
	moveFile = manifest("fs/move_file", "move_file", `{"type":"object","required":["source","destination"],"properties":{
		"destination":{"type":"string"},"source":{"type":"string"}}}`)
	swapped = manifest("m/sub", "subtract", `{"type":"object","required":["b","a"],"properties":{
		"b":{"type":"integer","description":"The second operand"},"a":{"type":"integer","description":"The first operand"}}}`)
	point    = manifest("g/point", "plot point", `{"type":"object","required":["x","y"],"properties":{"x":{"type":"number"},"y":{"type":"number"}}}`)
	numbered = manifest("m/max", "max", `{"type":"object","required":["n1","n2","n3"],"properties":{
		"n1":{"type":"integer"},"n2":{"type":"integer"},"n3":{"type":"integer"}}}`)
	scaled = manifest("m/scale", "scale", `{"type":"object","required":["a","factor"],"properties":{
		"a":{"type":"number","description":"First number"},"factor":{"type":"number","description":"Scale factor"}}}`)
	searchFiles = manifest("fs/search_files", "search_files", `{"type":"object","required":["path","pattern"],"properties":{
		"excludePatterns":{"type":"array","items":{"type":"string"},"default":[]},"path":{"type":"string"},"pattern":{"type":"string"}}}`)
	links = manifest("everything/get-resource-links", "get-resource-links", `{"type":"object","properties":{
		"count":{"type":"number","default":3,"description":"Number of resource links to return (1-10)"}}}`)
	rectangle = manifest("g/rect", "rectangle area", `{"type":"object","required":["width","height"],"properties":{
		"width":{"type":"number"},"height":{"type":"number"}}}`)
)

// TestResolvePlainWords: requests as an agent writes them without key=value,
// one group per rule (ordered numbers, a parameter's name as the cue of the
// words after it, relative paths), with the cases each rule must leave alone.
func TestResolvePlainWords(t *testing.T) {
	tests := []resolveCase{
		// Numbers in the order written, to parameters that differ only by order.
		{"ordinal descriptions", getSum, "get the sum of 2 and 3", map[string]any{"a": 2.0, "b": 3.0}},
		{"ordinal descriptions, other verb", getSum, "add the numbers 2 and 3", map[string]any{"a": 2.0, "b": 3.0}},
		{"decimals and negatives", getSum, "add 2.5 and -1.", map[string]any{"a": 2.5, "b": -1.0}},
		{"ordinal descriptions, not schema order", swapped, "subtract 10 and 4", map[string]any{"a": int64(10), "b": int64(4)}},
		{"letters x, y", point, "plot the point 3, 4", map[string]any{"x": 3.0, "y": 4.0}},
		{"names ending in digits", numbered, "the largest of 7, 9 and 8", map[string]any{"n1": int64(7), "n2": int64(9), "n3": int64(8)}},
		{"explicit keys still win", getSum, "sum b=3 and a=2", map[string]any{"a": 2.0, "b": 3.0}},
		{"more numbers than parameters: no guess", getSum, "add 1, 2 and 3", nil},
		{"one number for two: no guess", getSum, "add 2", nil},
		{"a parameter with a meaning stops the rule", scaled, "scale 2 by 3", nil},
		{"names without an order: no guess", rectangle, "the area of a 3 by 4 rectangle", nil},

		// A parameter's name as a noun, then its value to the end of the clause.
		{"free text after its name", echoTool, "echo the message hello world", map[string]any{"message": "hello world"}},
		{"free text ends with its clause", echoTool, "echo the message hello world, please", map[string]any{"message": "hello world"}},
		{"free text without its name", echoTool, "echo hello world", map[string]any{"message": "hello world"}},
		{"capitalised value", echoTool, "echo the message Good Morning.", map[string]any{"message": "Good Morning"}},
		{"quoted value as before", echoTool, `echo the message "a, b"`, map[string]any{"message": "a, b"}},
		{"one word after its name", reverse, "reverse the letters of the word stressed", map[string]any{"word": "stressed"}},
		{"one word, full stop", reverse, "Reverse the word stressed.", map[string]any{"word": "stressed"}},
		{"quoted word as before", reverse, "reverse the word 'stressed'", map[string]any{"word": "stressed"}},
		{"a name without a determiner is no cue", reverse, "word stressed reverse", nil},
		{"prose after the name is no value", reverse, "reverse the word in the middle of it", nil},
		{"too many words for a plain parameter", reverse, "reverse the word alpha beta gamma delta", nil},

		// Paths: absolute, relative, and a bare name after file/directory.
		{"absolute path", listDir, "list the directory /srv/data", map[string]any{"path": "/srv/data"}},
		{"relative path with slashes", listDir, "list the directory docs/reports/", map[string]any{"path": "docs/reports/"}},
		{"bare directory name after directory", listDir, "list the directory src", map[string]any{"path": "src"}},
		{"bare name after folder, full stop", listDir, "show me the folder build.", map[string]any{"path": "build"}},
		{"file name with an extension", readText, "read the file notes.txt", map[string]any{"path": "notes.txt"}},
		{"relative file path", readText, "read reports/q3.md", map[string]any{"path": "reports/q3.md"}},

		// A number in the phrase a description writes with N.
		{"first N lines", readText, "read the first 5 lines of reports/q3.md", map[string]any{"path": "reports/q3.md", "head": 5.0}},
		{"last N lines, singular", readText, "show the last 1 line of /var/log/syslog", map[string]any{"path": "/var/log/syslog", "tail": 1.0}},
		{"one word of the phrase is not enough", readText, "read the first 5 pages of notes.txt", map[string]any{"path": "notes.txt"}},
		{"from before to, whatever the schema order", moveFile, "move notes.txt to archive/notes.txt", map[string]any{"source": "notes.txt", "destination": "archive/notes.txt"}},
		{"absolute paths from before to", moveFile, "move /a/x.txt to /b/x.txt", map[string]any{"source": "/a/x.txt", "destination": "/b/x.txt"}},
		{"an address to the required recipient, whatever the schema order", mailTo, "mail ann@example.org", map[string]any{"to": []any{"ann@example.org"}}},
		{"slashed prose is no path", listDir, "list the speeds in km/h and/or mph", nil},

		// File-name patterns go to the pattern of what to find.
		{"glob to pattern, not to excludePatterns", searchFiles, "search files in /srv matching *.txt", map[string]any{"path": "/srv", "pattern": "*.txt", "excludePatterns": []any{}}},
		{"question-mark glob", searchFiles, "search /srv for report-??.csv", map[string]any{"path": "/srv", "pattern": "report-??.csv", "excludePatterns": []any{}}},
		{"a question is no glob", searchFiles, "search /srv for what?", nil},

		// The tool's only number, optional, takes the request's only number.
		{"only optional number", links, "get resource links 4", map[string]any{"count": 4.0}},
		{"two numbers: the default stays", links, "get resource links 4 or 5", map[string]any{"count": 3.0}},
	}
	checkResolveCases(t, tests)
}

func TestRelativePathShape(t *testing.T) {
	tests := map[string]bool{
		"docs/notes.txt": true, "notes.txt": true, "src/": true, "a/b/c": true, "main.go": true, "a.out": true,
		"report.v2.md": true, "data/2024.csv": true,
		"and/or": false, "km/h": false, "TCP/IP": false, "e.g": false, "3.5kg": false, "v1.2": false,
		"http://x.org/a.txt": false, "/etc/hosts": false, "a//b": false, "ann@example.com": false, "notes": false,
		"file.": false, "x.TXT": false, "hello world.txt": false,
	}
	globs := map[string]bool{"*.txt": true, "src/**/*.go": true, "report-??.csv": true, "[abc]*": true, "img[0-9].png": true,
		"*": false, "what?": false, "really?!": false, "http://x.org/*": false, "a b*": false, "[note]": false}
	for in, want := range globs {
		if got := isGlobLike(in); got != want {
			t.Errorf("isGlobLike(%q) = %v, want %v", in, got, want)
		}
	}
	for in, want := range tests {
		if got := isRelPathLike(in); got != want {
			t.Errorf("isRelPathLike(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestNSlot(t *testing.T) {
	tests := []struct {
		desc, before, after string
		ok                  bool
	}{
		{"If provided, returns only the first N lines of the file", "first", "lines", true},
		{"Top N results.", "top", "results", true},
		{"N lines", "", "", false},
		{"the first n lines", "", "", false},
		{"Stop. N more", "", "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		b, a, ok := nSlot(tt.desc)
		if b != tt.before || a != tt.after || ok != tt.ok {
			t.Errorf("nSlot(%q) = %q, %q, %v; want %q, %q, %v", tt.desc, b, a, ok, tt.before, tt.after, tt.ok)
		}
	}
}

func TestOrderRank(t *testing.T) {
	tests := []struct {
		name, desc string
		rank       int
		ok         bool
	}{
		{"a", "First number", 1, true},
		{"value", "The second operand.", 2, true},
		{"b", "", 100 + 'b', true},
		{"n3", "", 1003, true},
		{"x_1", "", 1001, true},
		{"count", "How many", 0, false},
		{"2", "", 0, false},
		{"port8080", "", 0, false},
	}
	for _, tt := range tests {
		r, ok := orderRank(&property{name: tt.name, description: tt.desc, desc: strings.ToLower(tt.desc)})
		if r != tt.rank || ok != tt.ok {
			t.Errorf("orderRank(%q, %q) = %d, %v; want %d, %v", tt.name, tt.desc, r, ok, tt.rank, tt.ok)
		}
	}
}
