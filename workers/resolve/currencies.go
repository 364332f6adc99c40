package resolve

import (
	"strings"

	"github.com/toolyard/toolyard/workers/internal/money"
)

// Currencies of a conversion: "8,450 CHF to euros", "5,000 yen in British
// pounds", "from sterling into dollars" fill the source and target
// currency parameters as ISO 4217 codes, named as workers/internal/money
// knows them.

// currencyProp: p takes a currency code (described as ISO 4217, or as a
// currency or named currency).
func currencyProp(p *property) bool {
	return stringProp(p) && (strings.Contains(p.desc, "4217") || strings.Contains(p.desc, "currency") || fitsName(p, currencyPropNames))
}

// currencyPropNames are currencyProp's names, made once.
var currencyPropNames = setOf("currency")

// currencyAt reads a currency at token i: a code in capitals that ISO
// 4217 knows, a name of one to three words, or a sign before an amount.
// It returns the code and the last token of the mention.
func (f *filler) currencyAt(i int) (string, int) {
	t := f.toks[i]
	for n := 3; n >= 1; n-- {
		if i+n > len(f.toks) {
			continue
		}
		var b strings.Builder
		for k := i; k < i+n; k++ {
			if k > i {
				if endsClause(f.toks[k-1].raw) {
					break
				}
				b.WriteByte(' ')
			}
			b.WriteString(f.toks[k].word)
		}
		if code, ok := money.Names[b.String()]; ok {
			return code, i + n - 1
		}
	}
	if code := money.Code(t.value); code != "" {
		return code, i
	}
	for sym, code := range money.Signs {
		if strings.HasPrefix(t.raw, sym) {
			return code, i
		}
	}
	if code, ok := money.SignedAmount(t.raw); ok {
		return code, i
	}
	return "", -1
}

// applyCurrencies is the rule currencies: for a tool with a source and a
// target currency parameter, the currency after to/in/into is the target,
// the one after from or after the amount the source ("1,200 EUR in USD").
func (f *filler) applyCurrencies() {
	var src, dst, only *property
	n := 0
	for _, p := range f.s.props {
		if !currencyProp(p) {
			continue
		}
		n++
		only = p
		if !f.missing(p) {
			continue
		}
		switch conversionEnd(p) {
		case 's':
			src = p
		case 't':
			dst = p
		}
	}
	if n == 1 && f.missing(only) {
		role := byte(0)
		switch {
		case dst != nil:
			role = 't'
		case src != nil:
			role = 's'
		}
		f.applySingleCurrency(only, role)
		return
	}
	if src == nil || dst == nil {
		return
	}
	type mention struct {
		currencyMention
		role byte // 's' source, 't' target, 0 unsaid
	}
	var ms []mention
	for _, cm := range f.currencyMentions() {
		m := mention{currencyMention: cm}
		switch cm.prev {
		case "to", "in", "into", "many":
			m.role = 't' // "how many yen is 50 pounds"
		case "from":
			m.role = 's'
		}
		ms = append(ms, m)
	}
	if len(ms) == 0 || len(ms) > 2 {
		return // three currencies: which converts to which is not said here
	}
	if len(ms) == 2 {
		if !pairEnds(&ms[0].role, &ms[1].role) {
			return
		}
	} else if m := &ms[0]; m.role == 0 {
		// One currency unsaid: the source when an amount is written
		// with it ("500 CHF").
		if !(m.first > 0 && isNumberToken(f.toks[m.first-1].raw)) && !f.symbolAmount(m.first) {
			return
		}
		m.role = 's'
	}
	for _, m := range ms {
		p := dst
		if m.role == 's' {
			p = src
		}
		if f.try(p, m.code) && !f.symbolAmount(m.first) {
			// A sign keeps its amount for the amount ("€40").
			f.useTokens(rangeIdx(m.first, m.end)...)
		}
	}
}

// sourceEndNames and targetEndNames name the ends of a conversion.
var (
	sourceEndNames = setOf("from", "source", "base", "src")
	targetEndNames = setOf("to", "target", "quote", "dest", "destination")
)

// conversionEnd says which end of a conversion p is, by its name or
// description: 's' the source ("from_currency", "Unit of the amount" named
// from_unit), 't' the target, 0 neither.
func conversionEnd(p *property) byte {
	switch {
	case fitsName(p, sourceEndNames) || strings.Contains(p.desc, "source") || strings.Contains(p.desc, "base currency"):
		return 's'
	case fitsName(p, targetEndNames) || strings.Contains(p.desc, "target") || strings.Contains(p.desc, "destination"):
		return 't'
	}
	return 0
}

// pairEnds completes the ends of a conversion's two mentions ('s' source,
// 't' target, 0 unsaid) when one says its end and the other does not
// ("8,450 CHF to euros": after to the target, so the other is the
// source). It reports whether each then has an end of its own.
func pairEnds(a, b *byte) bool {
	switch {
	case *a == 0 && *b == 't', *a == 's' && *b == 0:
		*a, *b = 's', 't'
	case *a == 't' && *b == 0, *a == 0 && *b == 's':
		*a, *b = 't', 's'
	}
	return *a != *b && *a != 0 && *b != 0
}

// currencyParamNames name a parameter for a currency.
var currencyParamNames = setOf("currency", "currencies")

// applySingleCurrency fills a tool's one currency parameter from the one
// currency the request names. Named for neither a source nor a target
// ("currency": "ISO currency code"), it takes one after in/into/to ("an
// invoice in euros"), a code in capitals or a sign ("CHF", "€40"), or a
// name after an amount ("40 dollars"), never the weight "pounds of";
// named for the target (role 't'), one after in/into/to only; for the
// source ('s'), one after from or an amount. Two different currencies
// say nothing of which one it is, and fill nothing.
func (f *filler) applySingleCurrency(p *property, role byte) {
	if role == 0 && !fitsName(p, currencyParamNames) && !strings.Contains(p.desc, "4217") && !strings.Contains(p.desc, "currency code") {
		return
	}
	code, seen, first, end := "", "", -1, -1
	for _, m := range f.currencyMentions() {
		i, e, c := m.first, m.end, m.code
		v := f.toks[i].value
		target := m.prev == "in" || m.prev == "into" || m.prev == "to"
		amount := f.symbolAmount(i) ||
			i > 0 && isNumberToken(f.toks[i-1].raw) && !(e+1 < len(f.toks) && f.toks[e+1].word == "of" && !endsClause(f.toks[e].raw))
		var said bool
		switch role {
		case 't':
			said = target
		case 's':
			said = m.prev == "from" || amount
		default:
			said = target || amount || len(v) == 3 && v == strings.ToUpper(v)
		}
		if seen != "" && c != seen {
			return
		}
		seen = c
		if said && code == "" {
			code, first, end = c, i, e
		}
	}
	if code != "" && f.try(p, code) && !f.symbolAmount(first) {
		f.useTokens(rangeIdx(first, end)...)
	}
}

// currencyMention is a currency a request names among its free words:
// its code, its first and last tokens, and the word before it in its
// clause ("" at a clause's start).
type currencyMention struct {
	code       string
	first, end int
	prev       string
}

// currencyMentions are the currencies the request names, in order.
func (f *filler) currencyMentions() []currencyMention {
	var ms []currencyMention
	for i := 0; i < len(f.toks); i++ {
		if f.toks[i].used {
			continue
		}
		code, end := f.currencyAt(i)
		if code == "" {
			continue
		}
		m := currencyMention{code: code, first: i, end: end}
		if i > 0 && !endsClause(f.toks[i-1].raw) {
			m.prev = f.toks[i-1].word
		}
		ms = append(ms, m)
		i = end
	}
	return ms
}

// symbolAmount: token i is a sign and an amount ("€40", "$120").
func (f *filler) symbolAmount(i int) bool {
	_, ok := money.SignedAmount(f.toks[i].raw)
	return ok
}

// isNumberToken: raw is an amount as written ("8,450", "12.5").
func isNumberToken(raw string) bool { return money.IsAmount(raw) }
