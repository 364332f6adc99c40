package discover

import (
	"slices"
	"strings"
)

// maxCompoundWords bounds the run of words joined into one: "who am i".
const maxCompoundWords = 3

// minCompoundLen keeps short joins ("a" + "t") from passing for words.
const minCompoundLen = 5

// compounds are the registry's words that a request spells apart: "who am
// i" for system/whoami, "hdb car park" for HDBCarPark. Two or three
// adjacent words of the request (stop words too), joined, that are some
// tool's one-word name or id (a name form of stats.names), as written (a
// stem would let "for me" pass for "form"), and not a word of the request
// already. Keywords are not: "lookup" is also a phrase of ordinary requests
// ("look up reviews"), where a tool's own name spelled apart names the tool.
// Caller holds the read lock.
func (e *Engine) compounds(words []string) []string {
	var out []string
	for i := range words {
		for n := 2; n <= maxCompoundWords && i+n <= len(words); n++ {
			joined := strings.Join(words[i:i+n], "")
			// The map first: every search asks, and a long request's
			// words would make the scans below quadratic. A joined run
			// has no space, so a tool named by it has it for a name form.
			if len(e.stats.names[joined]) == 0 || len(joined) < minCompoundLen || !wordLike(joined) ||
				slices.Contains(words, joined) || slices.Contains(out, joined) {
				continue
			}
			out = append(out, joined)
		}
	}
	return out
}

// withCompounds is q with its compounds, and the names of the tools it
// names by their command (commandNamed), added as if the request had
// written them, so that the tool they name is searched for and covers
// them; q itself when it has none. Caller holds the read lock.
func (e *Engine) withCompounds(q parsedQuery) parsedQuery {
	cs := append(e.compounds(q.words), e.commandNamed(q.raw)...)
	if len(cs) == 0 {
		return q
	}
	return e.parse(q.raw + " " + strings.Join(cs, " "))
}

// wordLike: s is ASCII letters and digits, a letter first ("sha256" of
// "sha 256"; "2 fa" joins to nothing).
func wordLike(s string) bool {
	for i, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}
