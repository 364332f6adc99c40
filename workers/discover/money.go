package discover

import (
	"regexp"
	"strings"

	"github.com/toolyard/toolyard/workers/internal/money"
)

// A currency a request names is a value, like a place: "200 Swiss francs
// in euros" says nothing of which tool is wanted but that it takes a
// currency. Read as words, "francs" and "euros" matched no tool's text (a
// currency tool says "currencies"), and the request went unanswered
// (not_found at 0.07 beside an exchange tool), or a unit converter took
// it ("how many yen is 50 pounds" activated at 0.89).

// moneyWord matches a word a currency may be written with: a sign with
// its amount ("C$12.50", "€40"), an amount, or letters.
var moneyWord = regexp.MustCompile(`[A-Z]{0,2}[€£$¥][0-9][0-9.,]*|[0-9][0-9.,]*|\pL+`)

// moneyAmbiguous are names of Names that as often name something else:
// a weight ("12 pounds to kilograms"), a quality ("sterling work"), a
// function ("rand"). They count only beside a currency named otherwise
// ("50 pounds in yen").
var moneyAmbiguous = map[string]bool{"pound": true, "pounds": true, "sterling": true, "rand": true}

// moneyMention is a currency a request names: its byte span, and whether
// it is named (by a name or a code) rather than by a sign before an amount.
type moneyMention struct {
	span  []int
	named bool
}

// moneyMentions are the currencies a request names: a name of one
// currency ("euros", "Swiss francs"; the ambiguous ones only beside an
// amount or another currency), a sign with its amount ("€40", "$120"), or
// an ISO 4217 code in capitals beside an amount ("300 CAD") or another code
// ("USD to EUR"): a code alone is as often a word or a name in capitals
// ("CAD drawings", "AMD", "ALL").
func moneyMentions(text string) []moneyMention {
	words := moneyWord.FindAllStringIndex(text, -1)
	type candidate struct {
		moneyMention
		strong bool // says a currency whatever is around it
		code   bool
	}
	var cs []candidate
	amountAt := make([]bool, len(words))
	for i, w := range words {
		amountAt[i] = money.IsAmount(text[w[0]:w[1]])
	}
	for i := 0; i < len(words); i++ {
		raw := text[words[i][0]:words[i][1]]
		if _, ok := money.SignedAmount(raw); ok {
			cs = append(cs, candidate{moneyMention: moneyMention{span: words[i]}, strong: true})
			continue
		}
		if n, ok := moneyName(text, words, i); ok {
			name := strings.ToLower(text[words[i][0]:words[i+n-1][1]])
			cs = append(cs, candidate{moneyMention: moneyMention{span: []int{words[i][0], words[i+n-1][1]}, named: true},
				strong: !moneyAmbiguous[name]})
			i += n - 1
			continue
		}
		if money.Code(raw) != "" {
			cs = append(cs, candidate{moneyMention: moneyMention{span: words[i], named: true}, code: true,
				strong: i > 0 && amountAt[i-1] || i+1 < len(words) && amountAt[i+1]})
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

// moneyName is how many words from word i make a name of money.Names, 0
// and false when none does.
func moneyName(text string, words [][]int, i int) (int, bool) {
	for n := min(money.MaxNameWords, len(words)-i); n >= 1; n-- {
		if !onlySpaces(text, words[i:i+n]) {
			continue
		}
		if _, ok := money.Names[strings.ToLower(joinWords(text, words[i:i+n]))]; ok {
			return n, true
		}
	}
	return 0, false
}

// onlySpaces: the words follow each other with nothing but spaces between.
func onlySpaces(text string, words [][]int) bool {
	for k := 1; k < len(words); k++ {
		if strings.TrimSpace(text[words[k-1][1]:words[k][0]]) != "" {
			return false
		}
	}
	return true
}

// joinWords is the words joined by one space.
func joinWords(text string, words [][]int) string {
	var b strings.Builder
	for k, w := range words {
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(text[w[0]:w[1]])
	}
	return b.String()
}
