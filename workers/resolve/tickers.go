package resolve

import (
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// Ticker symbols: a stock's code as exchanges list it (AAPL, TSLA, BRK.B).
// A parameter described as a ticker takes such a code, never a company's
// name: "Nvidia" is not NVDA, and guessing the code would be a wrong call.

// tickerProp: p takes a ticker symbol.
func tickerProp(p *property) bool {
	return stringProp(p) && (strings.Contains(p.desc, "ticker") || fitsName(p, setOf("ticker")))
}

// notTickers are codes in capitals that requests write for other things.
var notTickers = setOf("I", "A", "CSV", "PDF", "API", "USA", "US", "UK", "EU", "ETF", "CEO", "CFO", "IPO", "EPS", "YTD",
	"EOD", "UTC", "GMT", "EST", "PST", "AM", "PM", "OK", "ASAP", "FYI", "KPI", "SQL", "URL", "ID", "PE", "P/E", "Q1", "Q2",
	"Q3", "Q4", "NYSE", "NASDAQ", "LSE", "TSX", "USD", "EUR", "GBP", "JPY",
	// Market terms: bars, ratios and figures, not companies.
	"OHLC", "OHLCV", "VWAP", "ROI", "ROE", "NAV", "AUM", "YOY", "QOQ", "ATH", "ADR", "EOY", "TTM", "GDP", "CPI")

// tickerShaped: v is written as a ticker: one to five capital letters,
// with an optional class after a dot (BRK.B).
func tickerShaped(v string) bool {
	base, class, dotted := strings.Cut(v, ".")
	if dotted && (len(class) != 1 || class[0] < 'A' || class[0] > 'Z') {
		return false
	}
	if len(base) < 1 || len(base) > 5 {
		return false
	}
	for i := 0; i < len(base); i++ {
		if base[i] < 'A' || base[i] > 'Z' {
			return false
		}
	}
	return !notTickers[v]
}

// applyTickers is the rule tickers: the one code in capitals of the
// request, anywhere (first word included: "MSFT price"), to the one
// missing ticker parameter.
func (f *filler) applyTickers() {
	target := f.soleMissingOf(tickerProp, false)
	if target == nil {
		return
	}
	var codes []int
	for i, t := range f.toks {
		if !t.used && tickerShaped(strings.TrimRight(t.value, "'’s")) {
			codes = append(codes, i)
		}
	}
	if len(codes) > 1 {
		// Two codes for one ticker ("compare AMD and INTC"): which one
		// is not said; each is reported with the parameter, and placed
		// by no later rule.
		for _, i := range codes {
			f.useTokens(i)
			f.moments = append(f.moments, schemas.Unmapped{Text: strings.TrimRight(f.toks[i].value, "'’s"), Parameter: target.name})
		}
		return
	}
	at := -1
	if len(codes) == 1 {
		at = codes[0]
	}
	if at >= 0 {
		if f.try(target, strings.TrimRight(f.toks[at].value, "'’s")) {
			f.useTokens(at)
		}
		return
	}
	// No code: the one name written ("Nvidia", "Acme Corp's") is the
	// company, reported with the parameter to ask for its ticker, and
	// placed by no later rule.
	first, last := -1, -1
	for i := range f.toks {
		if l := f.capRun(i); l >= 0 {
			if first >= 0 {
				return
			}
			first, last = i, l
		}
	}
	if first >= 0 {
		name := strings.TrimSuffix(strings.TrimSuffix(f.spanValue(first, last), "'s"), "’s")
		f.useTokens(rangeIdx(first, last)...)
		f.moments = append(f.moments, schemas.Unmapped{Text: name, Parameter: target.name})
	}
}
