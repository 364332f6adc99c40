// Package money knows how requests name currencies: by their names
// ("Swiss francs", "euros"), as ISO 4217 codes in capitals ("CHF"), and by
// their signs ("€", "£", "$" before an amount). The resolver fills currency
// parameters from it; discovery counts a named currency as a value a tool
// may take.
package money

import (
	"strings"

	"golang.org/x/text/currency"
)

// Names maps currency names as requests write them, in lower case, to their
// ISO 4217 codes. Written by hand: golang.org/x/text/currency holds codes
// and symbols but no English names. Only names that say one currency are
// here, with a country's adjective where needed ("francs", "pesos",
// "crowns", "rupees" alone are several; "won" and "real" are English
// words), except "dollars" and "pounds" alone: they are read as the US
// dollar and the pound sterling, as requests in English mostly mean them.
var Names = map[string]string{
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

// MaxNameWords is the longest name of Names in words.
const MaxNameWords = 3

// Signs are the signs that say one currency, with or without an amount
// after them.
var Signs = map[string]string{"€": "EUR", "£": "GBP"}

// AmountSigns are the signs read as a currency only before an amount: "$"
// alone is also a shell's ("$HOME"), and is read as the US dollar as
// "dollars" is; a country's letters before it say which dollar ("C$",
// "A$"); "¥" is the yen as English mostly writes it.
var AmountSigns = map[string]string{"$": "USD", "US$": "USD", "C$": "CAD", "CA$": "CAD", "A$": "AUD", "AU$": "AUD",
	"NZ$": "NZD", "HK$": "HKD", "S$": "SGD", "R$": "BRL", "¥": "JPY"}

// SignRunes are the signs of Signs and AmountSigns, each the last rune of
// its symbol ("C$" ends in "$"): what a scanner looks for before an amount.
const SignRunes = "$€£¥"

// Code is the ISO 4217 code a word in capitals is ("CHF"), or "".
func Code(word string) string {
	if len(word) != 3 || word != strings.ToUpper(word) || word == "XXX" {
		return ""
	}
	if _, err := currency.ParseISO(word); err != nil {
		return ""
	}
	return word
}

// SignedAmount reads a sign of Signs or AmountSigns and the amount after it
// ("€40", "C$12.50"): the sign's currency.
func SignedAmount(raw string) (string, bool) {
	for _, signs := range []map[string]string{Signs, AmountSigns} {
		for sym, code := range signs {
			if rest, ok := strings.CutPrefix(raw, sym); ok && IsAmount(rest) {
				return code, true
			}
		}
	}
	return "", false
}

// IsAmount: raw is an amount as written ("8,450", "12.5"), sentence
// punctuation after it allowed.
func IsAmount(raw string) bool {
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
