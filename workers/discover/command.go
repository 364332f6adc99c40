package discover

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// describedCommand finds the command line a tool's description says it
// runs, written in parentheses at the end of a sentence or clause: "Show
// total, used and free memory (RAM) and swap (free -h).", "Show the user
// and groups the tools run as (id)." — a command word in lower case and its
// options, nothing else. A gloss inside a sentence ("a checksum (hash) of a
// file") is not one, nor a path, an example or an abbreviation ("(RAM)").
var describedCommand = regexp.MustCompile(`\(([a-z][a-z0-9_]*)((?:\s+--?[A-Za-z0-9][\w-]*)*)\)\s*(?:[.;,:]|$)`)

// describedCommands are the command words a description says the tool
// runs ("free" of "(free -h)"), lower case, without repeats.
func describedCommands(description string) []string {
	var out []string
	for _, m := range describedCommand.FindAllStringSubmatch(description, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// commandNamed are the name forms of the tools a request written as a
// command line names by their command: "free -h", "ps -ef", "id", "head -n
// 5 /etc/passwd" — the first word a command some tool's description says
// it runs (describedCommands), and every other word an option, a number, a
// path or another value, as a shell command's arguments are. Such a
// request names the tool as surely as its name would, even where the
// command is also an ordinary word that another tool's name holds ("free",
// "find", "head"); "free disk space" is no command line, and is left to
// its words. Caller holds the read lock.
func (e *Engine) commandNamed(raw string) []string {
	if len(e.stats.commands) == 0 {
		return nil
	}
	// The first word alone first: most requests start with no command.
	raw = strings.TrimLeftFunc(raw, unicode.IsSpace)
	first, rest := raw, ""
	if i := strings.IndexFunc(raw, unicode.IsSpace); i >= 0 {
		first, rest = raw[:i], raw[i:]
	}
	ids := e.stats.commands[strings.ToLower(first)]
	if len(ids) == 0 || slices.ContainsFunc(strings.Fields(rest), func(f string) bool { return !commandArgument(f) }) {
		return nil
	}
	var out []string
	for _, id := range ids {
		if en := e.tools[id]; en != nil && len(en.names) > 0 {
			out = append(out, en.names[0])
		}
	}
	return out
}

// commandArgument says whether a word reads as a command's argument rather
// than as a word of a sentence: an option ("-h", "--check"), a number
// ("5", "-5"), a path or a file name ("/etc/hosts", "~/x", "notes.txt",
// "*.log"), a quoted value or a key=value.
func commandArgument(f string) bool {
	switch {
	case strings.HasPrefix(f, "-"):
		return true
	case strings.ContainsAny(f, "/.~*=\"'0123456789"):
		return true
	}
	return false
}
