package resolve

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is one whitespace-separated word of the intent text that no pair
// claimed. word is its lower-case form without surrounding punctuation.
type token struct {
	raw  string
	word string
	norm string // normalize(word), for matching property names
	// value is cleanValue(raw), the word as a value: made once, since
	// many rules read it of every word.
	value      string
	start, end int
	used       bool
	// strayDate: the token is part of a date or time that no parameter
	// took (applyDates uses it all the same, so its words are read as no
	// name); a message may still hold it, and the result reports it.
	strayDate bool
}

// tokenize splits text into tokens, skipping the hidden byte ranges.
func tokenize(text string, hidden []bool) []token {
	out := make([]token, 0, strings.Count(text, " ")+1) // about one a space
	start := -1
	add := func(start, end int) {
		raw := text[start:end]
		// The curly apostrophe read as the straight one ("don’t"), once
		// here rather than in every rule that matches words.
		word := strings.ReplaceAll(strings.ToLower(trimPunct(raw)), "’", "'")
		out = append(out, token{raw: raw, word: word, norm: normalize(word), value: cleanValue(raw), start: start, end: end})
	}
	flush := func(end int) {
		if start >= 0 {
			if cut := gluedUnitCut(text[start:end]); cut > 0 {
				add(start, start+cut)
				add(start+cut, end)
			} else {
				add(start, end)
			}
			start = -1
		}
	}
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) || hidden[i] {
			flush(i)
		} else if start < 0 {
			start = i
		}
		i += w
	}
	flush(len(text))
	return out
}

// trimPunct strips the punctuation prose puts around a word.
func trimPunct(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return strings.ContainsRune(`.,;:!?()[]{}"'“”‘’«»`+"`", r)
	})
}

// fillers are words that frame a request rather than carry its content;
// free text is trimmed of them at both ends ("run the scraper for tech
// companies" → "tech companies").
var fillers = setOf(
	"a", "an", "the", "for", "of", "on", "about", "with", "that", "which", "who",
	"to", "in", "into", "from", "by", "at", "and", "or", "please", "run", "use",
	"using", "via", "call", "invoke", "execute", "show", "me", "my", "get", "give",
	"find", "fetch", "list", "do", "can", "you", "could", "would", "i", "want",
	"need", "some", "any", "tool", "tools", "is", "are", "what", "whats", "what's",
	"let", "lets", "let's", "now", "then", "also", "just", "it", "this",
)

// connectors may sit between a property's name and its value: "limit of 50".
var connectors = setOf("of", "is", "to", "as", "at", "=", ":", "equals", "=>")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// toolWords are the words of a tool's name and id, singular and plural,
// which say which tool to use and so are not an argument.
func toolWords(id, name string) map[string]bool {
	m := map[string]bool{}
	for _, src := range []string{id, name} {
		for _, w := range nameWords(src) {
			m[w] = true
			m[w+"s"] = true
			// Just enough stemming that "scrape" and "counting" name the
			// google maps scraper and a line counter.
			switch {
			case len(w) > 3 && strings.HasSuffix(w, "s"):
				m[w[:len(w)-1]] = true
			case len(w) > 4 && strings.HasSuffix(w, "er"):
				m[w[:len(w)-1]] = true
				m[w[:len(w)-2]] = true
			case len(w) > 5 && strings.HasSuffix(w, "ing"):
				m[w[:len(w)-3]] = true
			}
		}
	}
	return m
}

// looksLikeValue: a single word that is unlikely to be prose, so a cue
// may take it for a string property.
func looksLikeValue(s string) bool {
	if s == "" {
		return false
	}
	if strings.ContainsAny(s, "/@#:._=0123456789") {
		return true
	}
	return false
}

func isCapitalized(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

func isPathLike(s string) bool {
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") ||
		strings.HasPrefix(s, "../") || strings.HasPrefix(s, "~/") || s == "~"
}

func isURLLike(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

func isEmailLike(s string) bool {
	at := strings.IndexByte(s, '@')
	return at > 0 && strings.IndexByte(s[at:], '.') > 1 && !strings.ContainsAny(s, " /")
}

// pathNames are the words of parameter names that take a path.
var pathNames = setOf("path", "paths", "file", "files", "filename", "filepath", "dir", "directory", "folder", "root", "source", "src", "dest", "destination", "target")

// shape ties the look of a word to the names of the properties it fits.
type shape struct {
	fits  func(string) bool
	names map[string]bool
	// example is a value of this shape for the corrected intent that a
	// missing-parameter error suggests.
	example string
	// described, when set, finds a parameter that takes the shape by its
	// description where its name does not say so.
	described func(*property) bool
}

// pathShape is the index in shapes of an absolute path's shape, whose
// takers are the parameters for a path.
const pathShape = 0

var shapes = []shape{
	{isPathLike, pathNames, "/tmp", describesFile},
	{isRelPathLike, pathNames, "/tmp", describesFile},
	{isURLLike, setOf("url", "urls", "uri", "link", "links", "website", "site", "endpoint", "href", "page"), "https://example.com", nil},
	{isEmailLike, setOf("email", "emails", "to", "recipient", "recipients", "cc", "bcc", "address", "from", "attendees", "attendee", "participants", "guests", "invitees"), "someone@example.com", nil},
	{isGlobLike, globNames, "*.txt", describesGlob},
	{isHostLike, setOf("host", "hostname", "domain", "server"), "example.com", nil},
	{isRepoLike, setOf("repo", "repository"), "owner/name", nil},
	{isChannelLike, setOf("channel"), "#general", nil},
	{isPhoneLike, phoneNames, "555-0100", describesPhone},
}

// fileNames and fileCues find a parameter that takes a file by what it
// holds ("attachment", "photo") or by a description that says it takes a
// path or something attached ("Path of a photo or file to attach"): a file
// name ("vacation.jpg") is sent there, not as the message's text.
var (
	fileNames = setOf("attachment", "attachments", "photo", "photos", "image", "images", "picture", "pictures")
	fileCues  = setOf("path", "paths", "attach", "attachment", "attachments", "attached")
)

// describesFile: p takes a file, by what it holds or by its description.
func describesFile(p *property) bool {
	return fitsName(p, fileNames) || describesAny(p, fileCues)
}

// describesPhone: p's description says it takes a phone number ("Phone
// number or contact name").
func describesPhone(p *property) bool { return strings.Contains(p.desc, "phone") }

// freetextNames are parameter names that mean "the request itself".
var freetextNames = setOf("query", "q", "text", "prompt", "message")

// IsPathName reports whether a parameter's name says it takes a file
// system path: one of its words is a path word ("path", "file", "dir",
// "folder", "source", "dest", …; "inputFile", "output_dir"). The
// executor confines the values of such parameters to its path roots.
func IsPathName(name string) bool {
	for _, w := range nameWords(name) {
		if pathNames[w] {
			return true
		}
	}
	return false
}

// gluedUnitCut is where an amount written against its unit ends ("10km",
// "68°F", "2.5kg,", "100mph") — the word is then read as the two words it
// stands for, "10 km" — or 0. The unit must be one the units rule knows
// by a symbol or name of two letters or more, or any after a degree sign:
// a lone letter glued to a number is as often something else ("5m", "4K",
// "3D"), and so are a number's ordinal or multiplier ("2nd", "10x").
func gluedUnitCut(raw string) int {
	if raw == "" || raw[0] < '0' || raw[0] > '9' {
		return 0
	}
	cut := 0
	for cut < len(raw) && (raw[cut] >= '0' && raw[cut] <= '9' || raw[cut] == '.' || raw[cut] == ',') {
		cut++
	}
	for cut > 0 && (raw[cut-1] == '.' || raw[cut-1] == ',') {
		cut-- // a sentence's "10." or a list's "10,"
	}
	unit := strings.TrimRight(raw[cut:], `.,;:!?)]}"'`)
	symbol := strings.TrimPrefix(unit, "°")
	if symbol == "" || strings.ContainsFunc(symbol, func(r rune) bool { return !unicode.IsLetter(r) && r != '/' }) {
		return 0
	}
	if len(symbol) < 2 && symbol == unit {
		return 0
	}
	if _, ok := knownUnits().find(unit); !ok {
		return 0
	}
	return cut
}
