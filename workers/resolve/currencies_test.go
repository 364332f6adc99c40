package resolve

import (
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

var (
	// fxConvert converts between two ISO codes; fxPrice takes one
	// currency.
	fxConvert = manifest("t/fx", "FX", `{"type":"object","required":["value","source","target"],"properties":{
		"value":{"type":"number","description":"Amount of money"},
		"source":{"type":"string","description":"ISO 4217 code to convert from"},
		"target":{"type":"string","description":"ISO 4217 code to convert to"}}}`)
	fxPrice = manifest("t/price", "Price", `{"type":"object","required":["item"],"properties":{
		"item":{"type":"string","description":"Item name"},
		"currency":{"type":"string","description":"Currency to show prices in"}}}`)
)

// TestCurrencies: the currencies of a conversion, by what comes before
// each; nothing when which is which is not said.
func TestCurrencies(t *testing.T) {
	checkGuessesOn(t, fxConvert, []string{"source", "target"}, []textCase{
		{"how much is 75 NOK in SEK", M{"source": "NOK", "target": "SEK"}},
		{"change 2,300 Canadian dollars into euros please", M{"source": "CAD", "target": "EUR"}},
		{"I need 900 Swiss francs converted to sterling", M{"source": "CHF", "target": "GBP"}},
		{"to yen from US dollars, 40 of them", M{"source": "USD", "target": "JPY"}},
		{"€250 in Australian dollars", M{"source": "EUR", "target": "AUD"}},
		{"what's 18 pounds in dollars today", M{"source": "GBP", "target": "USD"}},
		// "how many" names the target; a sign before an amount the source.
		{"how many euros is 90 Swiss francs", M{"source": "CHF", "target": "EUR"}},
		{"how many kronor do I get for 30 euros", M{"source": "EUR"}}, // kronor: several
		{"turn $35 into sterling", M{"source": "USD", "target": "GBP"}},
		{"C$80 in US dollars", M{"source": "CAD", "target": "USD"}},
		{"¥9,000 to euros", M{"source": "JPY", "target": "EUR"}},
		// One currency: the source with its amount, the target after in.
		{"convert 60 GBP", M{"source": "GBP"}},
		{"what is 12 in euros", M{"target": "EUR"}},
		// Negatives: not codes, not said which, too many.
		{"convert 60 usd to eur", M{}},
		{"compare the euro and the yen", M{}},
		{"convert 10 EUR to USD and GBP", M{}},
		{"convert 10 ABC to XYZ", M{}},
		{"francs to pesos for 80", M{}},
		// A dollar sign with no amount after it is a shell's.
		{"convert $HOME to euros", M{"target": "EUR"}},
	})
	// One currency parameter takes the code of the one named
	// (TestSingleCurrency).
	if got := guessed(t, fxPrice, "price of a Kindle in euros"); got["currency"] != "EUR" {
		t.Errorf("single currency parameter: %#v, want EUR", got)
	}
}

var (
	fxBill = manifest("t/bill", "Bill client", `{"type":"object","required":["client"],"properties":{
		"client":{"type":"string","description":"Client name"},"total":{"type":"number","description":"Amount"},
		"currency":{"type":"string","description":"ISO currency code"}}}`)
	fxQuote = manifest("t/quote", "Stock quote", `{"type":"object","required":["symbol"],"properties":{
		"symbol":{"type":"string","description":"Ticker"},
		"target_currency":{"type":"string","description":"ISO 4217 code to show the price in"}}}`)
)

// TestSingleCurrency: a tool's one currency parameter takes the code of
// the one currency named, not the name.
func TestSingleCurrency(t *testing.T) {
	tests := []struct {
		name string
		m    schemas.Manifest
		text string
		want any // nil: not filled
	}{
		{"after in", fxBill, "bill Northwind in Swiss francs", "CHF"},
		{"after an amount", fxBill, "bill Northwind 300 Canadian dollars", "CAD"},
		{"code", fxBill, "bill Northwind, NZD", "NZD"},
		{"sign", fxBill, "bill Northwind £120", "GBP"},
		{"target", fxQuote, "quote for NVDA in yen", "JPY"},
		// Negatives: two currencies, a weight, a target not after in.
		{"two currencies", fxBill, "bill Northwind in euros or in dollars", nil},
		{"weight", fxBill, "bill Northwind for 20 pounds of coffee", nil},
		{"target needs in", fxQuote, "quote for NVDA, 50 yen", nil},
		{"no currency", fxBill, "bill Northwind for the March work", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := guessed(t, tc.m, tc.text)
			key := "currency"
			if tc.m.ID == fxQuote.ID {
				key = "target_currency"
			}
			if got[key] != tc.want {
				t.Errorf("%q: %s = %#v, want %#v (all %#v)", tc.text, key, got[key], tc.want, got)
			}
		})
	}
}
