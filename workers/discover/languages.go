package discover

import (
	"strings"
	"sync"
	"unicode"

	"github.com/toolyard/toolyard/workers/internal/languages"
)

// A language a request names where a language goes — "what is 'merci
// beaucoup' in English", "say good night in Japanese", "translate this
// into Swahili" — says that the tool takes a language (a parameter named
// language, lang or locale: valuekinds.go). Read as a word alone,
// "English" matched no tool (a translator says "another language"), and
// the request went unanswered (not_found at 0.01, the kernel tool ranked
// first). Unlike a place's name, the language's stays a word of the
// request too: tools named for one language ("translateSpanish") are
// common, and searching the name as a value only cost Seal-Tools dev two
// of its right tools within the first five (recall@5 0.892 → 0.890).

// languageNames are the names of the languages with an ISO 639-1 code
// (package languages: CLDR's English names, not a list of favourites) that
// are one word; short ones that are as often other words ("Ewe", "Ido",
// "Yi") are left out.
var languageNames = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for name := range languages.Codes() {
		if len(name) >= 4 && !strings.ContainsAny(name, " -") {
			out[name] = true
		}
	}
	return out
})

// languageBefore are the words after which a language name says which
// language: "in English", "into Japanese", "to French", "from Spanish".
var languageBefore = map[string]bool{"in": true, "into": true, "to": true, "from": true}

// languageAfter are the words that may follow such a name without making
// it an adjective of the next word ("in English please", "from Spanish to
// Dutch", but "in Chinese restaurants", "to French bakeries").
var languageAfter = map[string]bool{
	"and": true, "or": true, "please": true, "pls": true, "for": true, "so": true, "then": true,
	"too": true, "as": true, "with": true, "without": true, "but": true, "thanks": true,
	"language": true, "instead": true, "now": true, "again": true, "to": true, "into": true,
}

// languageSpans are the byte spans of the languages a request names in a
// language's place (after in, into, to or from; at the end, before
// punctuation, or before a word that leaves it a noun). Every search asks,
// so the words are scanned by hand, and only a word after a lead word is
// looked up.
func languageSpans(text string) [][]int {
	var spans [][]int
	lead := false
	for i := 0; ; {
		start, end := letterRun(text, i)
		if start < 0 {
			return spans
		}
		i = end
		w := strings.ToLower(text[start:end])
		if lead && languageNames()[w] {
			next, nextEnd := letterRun(text, end)
			if next < 0 || strings.TrimSpace(text[end:next]) != "" || languageAfter[strings.ToLower(text[next:nextEnd])] {
				spans = append(spans, []int{start, end})
			}
		}
		lead = languageBefore[w]
	}
}

// letterRun is the next run of letters at or after i, (-1, -1) when none.
func letterRun(text string, i int) (int, int) {
	start := -1
	for j, r := range text[i:] {
		switch {
		case unicode.IsLetter(r) && start < 0:
			start = i + j
		case !unicode.IsLetter(r) && start >= 0:
			return start, i + j
		}
	}
	if start < 0 {
		return -1, -1
	}
	return start, len(text)
}
