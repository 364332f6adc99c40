package resolve

import (
	"context"
	"errors"
	"strings"
	"testing"
)

var (
	// quoteTool takes a ticker; labelTool a plain symbol (not a ticker).
	quoteTool = manifest("t/quote", "Quote", `{"type":"object","required":["ticker"],"properties":{
		"ticker":{"type":"string","description":"Exchange ticker symbol, e.g. IBM"}}}`)
	labelTool = manifest("t/label", "Label", `{"type":"object","required":["symbol"],"properties":{
		"symbol":{"type":"string","description":"Symbol to print on the label"}}}`)
)

// TestTickers: a code in capitals, first word included, fills a ticker
// parameter; a company's name never does, and is reported with it.
func TestTickers(t *testing.T) {
	checkGuessesOn(t, quoteTool, nil, []textCase{
		{"NFLX quote", M{"ticker": "NFLX"}},
		{"how is GOOGL doing today", M{"ticker": "GOOGL"}},
		{"BRK.B last trade", M{"ticker": "BRK.B"}},
		{"OHLC bars of ADBE for March", M{"ticker": "ADBE"}},
		{"what's F at now", M{"ticker": "F"}},
		// Negatives: names, two codes, codes that are no ticker.
		{"how are Costco shares doing", M{}},
		{"quote for Shopify please", M{}},
		{"the CEO said what in the PDF", M{}},
		{"compare AMD and INTC", M{}},
	})
	// The company's name is reported for the ticker, in the question.
	_, err := Resolve(context.Background(), routed("where is Costco trading"), quoteTool)
	var miss *MissingError
	if !errors.As(err, &miss) || len(miss.Unmapped) != 1 || miss.Unmapped[0].Text != "Costco" || miss.Unmapped[0].Parameter != "ticker" ||
		!strings.Contains(err.Error(), "not a company's name") {
		t.Errorf("company name not reported for the ticker: %v", err)
	}
	// Two codes are both reported, neither placed.
	_, err = Resolve(context.Background(), routed("ORCL or CRM, whichever is up"), quoteTool)
	if !errors.As(err, &miss) || len(miss.Unmapped) != 2 {
		t.Errorf("two codes not reported: %v", err)
	}
	// A symbol that is no ticker keeps taking names.
	if got := guessed(t, labelTool, "print the label with symbol Omega"); got["symbol"] != "Omega" {
		t.Errorf("plain symbol: %#v", got)
	}
}
