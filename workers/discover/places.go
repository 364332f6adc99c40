package discover

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolyard/toolyard/workers/internal/places"
)

// placeWord matches a word a place name may be made of: letters, and the
// apostrophes, hyphens and dots inside names ("St. John's",
// "Port-au-Prince"), with the comma that may follow it.
var placeWord = regexp.MustCompile(`\pL[\pL\pM'’.-]*,?`)

// placeSpans are the places a request names, as byte spans of its text: a
// run of words that the places tables know ("San Francisco", "Germany",
// "Portland, Maine"), starting with a capital. A named place is a value,
// like a path: "San Francisco" says nothing about which tool is wanted,
// only that one taking a place (a location, a time zone) would take it.
//
// A capitalised word that opens the request or a sentence is taken only as
// part of a longer name ("New York weather"): there it is as likely an
// ordinary word that a town is also called ("Split the file", "Reading
// list", "Nice work").
func placeSpans(text string) [][]int {
	words := placeWord.FindAllStringIndex(text, -1)
	var spans [][]int
	raws := make([]string, 0, places.MaxWords)
	for i := 0; i < len(words); i++ {
		w := text[words[i][0]:words[i][1]]
		if r, _ := utf8.DecodeRuneInString(w); !unicode.IsUpper(r) {
			continue
		}
		raws = raws[:0]
		for j := i; j < len(words) && j < i+places.MaxWords; j++ {
			if j > i && !onlySpaceOrComma(text[words[j-1][1]:words[j][0]]) {
				break
			}
			raws = append(raws, text[words[j][0]:words[j][1]])
		}
		n, _ := places.Longest(raws)
		if n == 0 && places.Abbreviation(strings.TrimRight(w, ",.")) {
			n = 1 // "the time in PST": a time zone, as a city is a place
		} else if n == 0 || n == 1 && opensSentence(text, words[i][0]) {
			continue
		}
		last := i + n - 1
		end := words[i][0] + len(strings.TrimRight(text[words[i][0]:words[last][1]], ",."))
		spans = append(spans, []int{words[i][0], end})
		i = last
	}
	return spans
}

// onlySpaceOrComma: what lies between two words of one name.
func onlySpaceOrComma(s string) bool {
	return strings.TrimSpace(s) == "" || strings.TrimSpace(s) == ","
}

// opensSentence: the word at byte i opens the text or a sentence.
func opensSentence(text string, i int) bool {
	before := strings.TrimRightFunc(text[:i], unicode.IsSpace)
	return before == "" || strings.HasSuffix(before, ".") || strings.HasSuffix(before, "!") ||
		strings.HasSuffix(before, "?") || strings.HasSuffix(before, ":") || strings.HasSuffix(before, "[") ||
		strings.HasSuffix(before, "\"") || strings.HasSuffix(before, "(")
}

// hasUpper: the text has a capital letter, without which it names no
// place (placeSpans).
func hasUpper(s string) bool {
	for _, r := range s {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// mergeSpans adds to spans (sorted, apart) the extra ones that overlap
// none of them, keeping the order; added says whether any was.
func mergeSpans(spans, extra [][]int) (merged [][]int, added bool) {
	merged = make([][]int, 0, len(spans)+len(extra))
	i := 0
	for _, x := range extra {
		for i < len(spans) && spans[i][1] <= x[0] {
			merged = append(merged, spans[i])
			i++
		}
		if i < len(spans) && spans[i][0] < x[1] {
			continue // inside a path, an address, a quote
		}
		merged = append(merged, x)
		added = true
	}
	return append(merged, spans[i:]...), added
}
