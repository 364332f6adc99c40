package discover

import (
	"strings"
	"unicode"
)

// requestParts splits a request into its sentences, for the sentence
// encoder: a request of several tasks ("get the solar radiation of New
// York. Finally, estimate the water needs of London") encodes as a blur of
// all of them, close to none, while each tool serves one part. A part
// ends at '.', '!', '?' or ';' followed by a space (not the dot of "e.g."
// or an initial), or at a line break;
// parts of fewer than two words (a closing "Thanks.") are left out. It
// returns nil when the request has fewer than two parts.
func requestParts(text string) []string {
	var parts []string
	start := 0
	flush := func(end int) {
		part := strings.TrimSpace(text[start:end])
		if len(strings.Fields(part)) >= 2 {
			parts = append(parts, part)
		}
	}
	for i, r := range text {
		end := -1
		switch r {
		case '\n':
			end = i
		case '.', '!', '?', ';':
			next := i + 1
			if (next == len(text) || unicode.IsSpace(rune(text[next]))) && !(r == '.' && abbreviation(text[start:i])) {
				end = next
			}
		}
		if end >= 0 {
			flush(end)
			start = end
		}
	}
	flush(len(text))
	if len(parts) < 2 {
		return nil
	}
	return parts
}

// abbreviation reports whether the word ending text, before a dot, is an
// abbreviation or initial ("e.g", "U.S", "J"): the dot does not end a
// sentence.
func abbreviation(text string) bool {
	word := text[strings.LastIndexFunc(text, unicode.IsSpace)+1:]
	return len(word) == 1 || strings.Contains(word, ".")
}
