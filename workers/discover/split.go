package discover

import (
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

// splitFilterName names the identifier-splitting token filter in bleve's
// registry. It is global to the process, hence the package prefix.
const splitFilterName = "toolyard_identifier_split"

func init() {
	err := registry.RegisterTokenFilter(splitFilterName,
		func(map[string]interface{}, *registry.Cache) (analysis.TokenFilter, error) {
			return identifierSplitter{}, nil
		})
	if err != nil {
		panic(err)
	}
}

// identifierSplitter breaks identifiers into the words a person would type:
// getTeamStats → get Team Stats, google_maps_scraper → google maps scraper,
// system.disk_usage → system disk usage, HTTPServer → HTTP Server. The unicode
// tokenizer already splits on spaces, hyphens and slashes but keeps
// underscores and dots inside words, and it knows nothing of case.
//
// Letters and digits stay together (mp3, base64, ipv6, s3) because people
// write them as one word; so do plural and versioned acronyms (APIs, IPv6).
// It must run before lowercasing, since case is the only word boundary
// camelCase has.
type identifierSplitter struct{}

func (identifierSplitter) Filter(in analysis.TokenStream) analysis.TokenStream {
	out := make(analysis.TokenStream, 0, len(in))
	pos := 1
	for _, tok := range in {
		for _, r := range splitIdentifier(tok.Term) {
			out = append(out, &analysis.Token{
				Start:    tok.Start + r[0],
				End:      tok.Start + r[1],
				Term:     tok.Term[r[0]:r[1]],
				Position: pos,
				Type:     tok.Type,
				KeyWord:  tok.KeyWord,
			})
			pos++
		}
	}
	return out
}

// splitIdentifier returns the byte ranges of the words in term.
func splitIdentifier(term []byte) [][2]int {
	runes := make([]rune, 0, len(term))
	offs := make([]int, 0, len(term)+1)
	for i := 0; i < len(term); {
		r, n := utf8.DecodeRune(term[i:])
		runes = append(runes, r)
		offs = append(offs, i)
		i += n
	}
	offs = append(offs, len(term))

	var out [][2]int
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, [2]int{offs[start], offs[end]})
		}
		start = -1
	}
	for i, r := range runes {
		if !isWordRune(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		if wordBreakBefore(runes, i) {
			flush(i)
			start = i
		}
	}
	flush(len(runes))
	return out
}

// isWordRune reports whether r belongs inside a word. Apostrophes stay so
// that stop words like "don't" still match the stop list.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '\'' || r == '’'
}

// wordBreakBefore reports whether a new word starts at runes[i] (i > 0, both
// runes[i-1] and runes[i] are word runes).
func wordBreakBefore(runes []rune, i int) bool {
	prev, cur := runes[i-1], runes[i]
	if !unicode.IsUpper(cur) {
		return false
	}
	if unicode.IsLower(prev) || unicode.IsDigit(prev) {
		return true // getTeam, v2Users
	}
	if !unicode.IsUpper(prev) {
		return false
	}
	// Inside a run of capitals, the last one starts a new word when a
	// lowercase word follows (HTTPServer), but not for a plural or
	// versioned acronym (APIs, IPv6).
	j := i + 1
	for j < len(runes) && unicode.IsLower(runes[j]) {
		j++
	}
	lower := j - (i + 1)
	switch {
	case lower == 0:
		return false
	case lower == 1 && runes[i+1] == 's':
		return false
	case lower == 1 && j < len(runes) && unicode.IsDigit(runes[j]):
		return false
	}
	return true
}
