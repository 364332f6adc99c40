package resolve

import (
	"strings"

	"golang.org/x/text/currency"
)

// Currencies of a conversion: "8,450 CHF to euros", "5,000 yen in British
// pounds", "from sterling into dollars" fill the source and target
// currency parameters as ISO 4217 codes.

// currencyNames maps currency names as requests write them to their ISO
// 4217 codes. Written by hand: golang.org/x/text/currency (already a
// dependency, used below to check codes written as such) holds codes and
// symbols but no English names. Only names that say one currency are
// here, with a country's adjective where needed ("francs", "pesos",
// "crowns", "rupees" alone are several; "won" and "real" are English
// words), except "dollars" and "pounds" alone: they are read as the US
// dollar and the pound sterling, as requests in English mostly mean them,
// and the call's arguments show the code chosen.
var currencyNames = map[string]string{
	"euro": "EUR", "euros": "EUR",
	"dollar": "USD", "dollars": "USD", "us dollar": "USD", "us dollars": "USD", "american dollars": "USD",
	"yen": "JPY", "japanese yen": "JPY",
	"pound": "GBP", "pounds": "GBP", "british pound": "GBP", "british pounds": "GBP", "sterling": "GBP",
	"pounds sterling": "GBP", "pound sterling": "GBP",
	"swiss franc": "CHF", "swiss francs": "CHF",
	"canadian dollar": "CAD", "canadian dollars": "CAD",
	"australian dollar": "AUD", "australian dollars": "AUD",
	"new zealand dollar": "NZD", "new zealand dollars": "NZD",
	"hong kong dollar": "HKD", "hong kong dollars": "HKD",
	"singapore dollar": "SGD", "singapore dollars": "SGD",
	"yuan": "CNY", "renminbi": "CNY", "chinese yuan": "CNY",
	"indian rupee": "INR", "indian rupees": "INR",
	"korean won": "KRW", "south korean won": "KRW",
	"mexican peso": "MXN", "mexican pesos": "MXN",
	"brazilian real": "BRL", "brazilian reais": "BRL", "reais": "BRL",
	"swedish krona": "SEK", "swedish kronor": "SEK", "norwegian krone": "NOK", "norwegian kroner": "NOK",
	"danish krone": "DKK", "danish kroner": "DKK",
	"zloty": "PLN", "zlotys": "PLN", "polish zloty": "PLN",
	"rand": "ZAR", "south african rand": "ZAR",
	"turkish lira": "TRY", "russian rouble": "RUB", "russian ruble": "RUB", "roubles": "RUB", "rubles": "RUB",
}

// currencySymbols are the signs that say one currency, with or without an
// amount after them.
var currencySymbols = map[string]string{"€": "EUR", "£": "GBP"}

// amountSymbols are the signs read as a currency only before an amount:
// "$" alone is also a shell's ("$HOME"), and is read as the US dollar as
// "dollars" is; a country's letters before it say which dollar ("C$",
// "A$"); "¥" is the yen as English mostly writes it.
var amountSymbols = map[string]string{"$": "USD", "US$": "USD", "C$": "CAD", "CA$": "CAD", "A$": "AUD", "AU$": "AUD",
	"NZ$": "NZD", "HK$": "HKD", "S$": "SGD", "R$": "BRL", "¥": "JPY"}

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
		if code, ok := currencyNames[b.String()]; ok {
			return code, i + n - 1
		}
	}
	if v := t.value; len(v) == 3 && v == strings.ToUpper(v) {
		if _, err := currency.ParseISO(v); err == nil && v != "XXX" {
			return v, i
		}
	}
	for sym, code := range currencySymbols {
		if strings.HasPrefix(t.raw, sym) {
			return code, i
		}
	}
	if code, ok := signedAmount(t.raw, amountSymbols); ok {
		return code, i
	}
	return "", -1
}

// signedAmount reads a sign of signs and the amount after it ("€40",
// "C$12.50"): the sign's currency.
func signedAmount(raw string, signs map[string]string) (string, bool) {
	for sym, code := range signs {
		if rest, ok := strings.CutPrefix(raw, sym); ok && isNumberToken(rest) {
			return code, true
		}
	}
	return "", false
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
	_, eur := signedAmount(f.toks[i].raw, currencySymbols)
	_, usd := signedAmount(f.toks[i].raw, amountSymbols)
	return eur || usd
}

// isNumberToken: raw is an amount as written ("8,450", "12.5").
func isNumberToken(raw string) bool {
	raw = strings.TrimRight(raw, ".,;:!?")
	if raw == "" {
		return false
	}
	for _, r := range raw {
		if (r < '0' || r > '9') && r != ',' && r != '.' {
			return false
		}
	}
	return true
}
