package money

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCode(t *testing.T) {
	for _, c := range []struct{ word, want string }{
		{"CHF", "CHF"}, {"USD", "USD"}, {"chf", ""}, {"XXX", ""}, {"ABC", ""}, {"EURO", ""}, {"", ""},
	} {
		if got := Code(c.word); got != c.want {
			t.Errorf("Code(%q) = %q, want %q", c.word, got, c.want)
		}
	}
}

func TestSignedAmount(t *testing.T) {
	for _, c := range []struct {
		raw, want string
		ok        bool
	}{
		{"€40", "EUR", true}, {"£1,200.50", "GBP", true}, {"$120", "USD", true}, {"C$80", "CAD", true},
		{"A$5.", "AUD", true}, {"¥9,000", "JPY", true},
		{"$HOME", "", false}, {"$", "", false}, {"€", "", false}, {"40€", "", false}, {"C$", "", false},
	} {
		got, ok := SignedAmount(c.raw)
		if got != c.want || ok != c.ok {
			t.Errorf("SignedAmount(%q) = %q, %v; want %q, %v", c.raw, got, ok, c.want, c.ok)
		}
	}
}

func TestIsAmount(t *testing.T) {
	for raw, want := range map[string]bool{"8,450": true, "12.5": true, "12.5.": true, "12a": false, "": false, ".": false} {
		if got := IsAmount(raw); got != want {
			t.Errorf("IsAmount(%q) = %v, want %v", raw, got, want)
		}
	}
}

// Every symbol ends in one of SignRunes, so a scanner that looks for them
// finds every signed amount.
func TestSignRunesCoverTheSymbols(t *testing.T) {
	for _, signs := range []map[string]string{Signs, AmountSigns} {
		for sym := range signs {
			r, _ := utf8.DecodeLastRuneInString(sym)
			if !strings.ContainsRune(SignRunes, r) {
				t.Errorf("%q ends in %q, which SignRunes lacks", sym, r)
			}
		}
	}
}
