package discover

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/toolyard/toolyard/workers/internal/money"
)

// A currency a request names is a value, like a place: "200 Swiss francs
// in euros" says nothing of which tool is wanted but that it takes a
// currency. Read as words, "francs" and "euros" matched no tool's text (a
// currency tool says "currencies"), and the request went unanswered
// (not_found at 0.07 beside an exchange tool), or a unit converter took
// it ("how many yen is 50 pounds" activated at 0.89).

// moneyAmbiguous are names of money.Names that as often name something
// else: a weight ("12 pounds to kilograms"), a quality ("sterling work"),
// a function ("rand"). They count only beside a currency named otherwise
// ("50 pounds in yen").
var moneyAmbiguous = map[string]bool{"pound": true, "pounds": true, "sterling": true, "rand": true}

// moneyFirstWords are the first words of money.Names, in lower case: a
// word that is none of them starts no name, and most words are none.
var moneyFirstWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for name := range money.Names {
		first, _, _ := strings.Cut(name, " ")
		m[first] = true
	}
	return m
})

// moneyMention is a currency a request names: its byte span, and whether
// it is named (by a name or a code) rather than by a sign before an amount.
type moneyMention struct {
	span  []int
	named bool
}

// moneyMentions are the currencies a request names: a name of one
// currency ("euros", "Swiss francs"; the ambiguous ones only beside
// another currency), a sign with its amount ("€40", "$120"), or an ISO
// 4217 code in capitals beside an amount ("300 CAD") or another code ("USD
// to EUR"): a code alone is as often a word or a name in capitals ("CAD
// drawings", "AMD", "ALL").
func moneyMentions(text string) []moneyMention {
	words := moneyWords(text)
	type candidate struct {
		moneyMention
		strong bool // says a currency whatever is around it
		code   bool
	}
	var cs []candidate
	amountAt := func(i int) bool { return i >= 0 && i < len(words) && words[i].amount }
	var buf [64]byte
	for i := 0; i < len(words); i++ {
		w := words[i]
		raw := text[w.start:w.end]
		switch {
		case w.signed:
			if _, ok := money.SignedAmount(raw); ok {
				cs = append(cs, candidate{moneyMention: moneyMention{span: []int{w.start, w.end}}, strong: true})
			}
			continue
		case w.amount:
			continue
		}
		if n, name := moneyName(text, words[i:], buf[:0]); n > 0 {
			cs = append(cs, candidate{moneyMention: moneyMention{span: []int{w.start, words[i+n-1].end}, named: true},
				strong: !moneyAmbiguous[name]})
			i += n - 1
			continue
		}
		if money.Code(raw) != "" {
			cs = append(cs, candidate{moneyMention: moneyMention{span: []int{w.start, w.end}, named: true}, code: true,
				strong: amountAt(i-1) || amountAt(i+1)})
		}
	}
	// A weak mention counts beside a strong one ("yen … 50 pounds"), a
	// code beside another ("USD to EUR").
	anyStrong, codes := false, 0
	for _, c := range cs {
		anyStrong = anyStrong || c.strong
		if c.code {
			codes++
		}
	}
	var ms []moneyMention
	for _, c := range cs {
		if c.strong || anyStrong || c.code && codes > 1 {
			ms = append(ms, c.moneyMention)
		}
	}
	return ms
}

// moneyName is how many of the words make a name of money.Names, and the
// name in lower case; 0 when none does. buf is scratch for the name.
func moneyName(text string, words []moneyWord, buf []byte) (int, string) {
	first := words[0]
	if first.amount || first.signed {
		return 0, ""
	}
	lower := appendLowerASCII(buf, text[first.start:first.end])
	if !moneyFirstWords()[string(lower)] {
		return 0, ""
	}
	best, name := 0, ""
	for n := 1; n <= min(money.MaxNameWords, len(words)); n++ {
		if n > 1 {
			w := words[n-1]
			if w.amount || w.signed || strings.TrimSpace(text[words[n-2].end:w.start]) != "" {
				break
			}
			lower = append(lower, ' ')
			lower = appendLowerASCII(lower, text[w.start:w.end])
		}
		if _, ok := money.Names[string(lower)]; ok {
			best, name = n, string(lower)
		}
	}
	return best, name
}

// appendLowerASCII appends s lower-cased (ASCII letters; the names are).
func appendLowerASCII(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// moneyWord is a word a currency may be written with: letters, an amount
// ("8,450"), or a sign with its amount ("C$12.50", "€40").
type moneyWord struct {
	start, end     int
	amount, signed bool
}

// moneyWords splits text into moneyWords. Written by hand: the regular
// expression it replaces (letters as \pL+) took 13 µs a short request,
// and every search runs it.
func moneyWords(text string) []moneyWord {
	out := make([]moneyWord, 0, strings.Count(text, " ")+1)
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if end := signedAt(text, i); end > i {
			out = append(out, moneyWord{start: i, end: end, signed: true})
			i = end
			continue
		}
		switch {
		case '0' <= r && r <= '9':
			end := amountEnd(text, i)
			out = append(out, moneyWord{start: i, end: end, amount: true})
			i = end
		case unicode.IsLetter(r):
			end := i + size
			for end < len(text) {
				r, size := utf8.DecodeRuneInString(text[end:])
				if !unicode.IsLetter(r) {
					break
				}
				end += size
			}
			out = append(out, moneyWord{start: i, end: end})
			i = end
		default:
			i += size
		}
	}
	return out
}

// signedAt is the end of a sign and its amount starting at i (up to two
// capitals, a sign, a digit, then digits, dots and commas), or i.
func signedAt(text string, i int) int {
	j := i
	for j < len(text) && j-i < 2 && 'A' <= text[j] && text[j] <= 'Z' {
		j++
	}
	r, size := utf8.DecodeRuneInString(text[j:])
	if size == 0 || !strings.ContainsRune(money.SignRunes, r) {
		return i
	}
	j += size
	if j >= len(text) || text[j] < '0' || text[j] > '9' {
		return i
	}
	return amountEnd(text, j)
}

// amountEnd is the end of the digits, dots and commas from i.
func amountEnd(text string, i int) int {
	for i < len(text) && ('0' <= text[i] && text[i] <= '9' || text[i] == '.' || text[i] == ',') {
		i++
	}
	return i
}
