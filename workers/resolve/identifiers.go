package resolve

import (
	"regexp"
	"strings"
	"unicode"
)

// An identifier written bare ("where is my package 9400111899223344556677",
// "status of order 1Z999AA10123456784") is no number of anything and no
// name: a long run of digits, or of letters and digits, that only a
// parameter for an identifier takes. Introduced as such ("with the ID X")
// it is the ids rule's; bare, it was reported unmapped while the tool's
// tracking number stayed empty.

// identifierWords name, or describe, a text parameter that takes an
// identifier ("tracking_number", "order_id", "Carrier tracking number").
var identifierWords = setOf("id", "ids", "identifier", "uuid", "number", "num", "code", "tracking", "reference", "ref", "serial")

// isIdentifier: v is a long run of digits (eight or more: no year, count
// or amount is written so), or of letters and digits, hyphens between,
// with four digits or more among six characters or more ("1Z999AA1012",
// "ORD-55812"). A number with its unit ("1500mg") is a measure, and a
// hyphenated word ("covid-19") too few digits.
func isIdentifier(v string) bool {
	if allDigits(v) {
		return len(v) >= 8
	}
	if len(v) < 6 || numberWithUnit(v) || strings.HasPrefix(v, "-") || strings.HasSuffix(v, "-") || strings.Contains(v, "--") {
		return false
	}
	digits, letters := 0, 0
	for _, r := range v {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r < unicode.MaxASCII && unicode.IsLetter(r):
			letters++
		case r != '-':
			return false
		}
	}
	return digits >= 4 && letters > 0
}

// hashDigits reads a number written with its sign ("#123"): the digits.
func hashDigits(s string) (string, bool) {
	n, ok := strings.CutPrefix(s, "#")
	return n, ok && allDigits(n)
}

// numberWithUnit: v is a number and then letters only ("1500mg", "2.5kg"):
// a measure. unmapped's measure is broader (any digit-led word with a
// letter), which would refuse "1Z999AA1012".
func numberWithUnit(v string) bool {
	i := strings.IndexFunc(v, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	return i > 0 && strings.IndexFunc(v[i:], func(r rune) bool { return !unicode.IsLetter(r) }) < 0
}

// applyIdentifiers is the rule identifiers: a bare identifier fills the
// one missing text parameter named for one (tracking_number, order_id),
// else the one described as one ("Carrier tracking number"). A name
// outranks a description, which may mention an identifier only to say
// when the parameter is not needed ("if no tracking number is known").
func (f *filler) applyIdentifiers() {
	for i := range f.toks {
		v := f.toks[i].value
		if f.free(i) && f.prefixedID(i, v) {
			continue
		}
		if !f.free(i) || !isIdentifier(v) {
			continue
		}
		target := f.soleMissingOf(func(p *property) bool { return fitsName(p, identifierWords) }, false)
		if target == nil {
			target = f.soleMissingOf(func(p *property) bool { return describesAny(p, identifierWords) }, false)
		}
		if target != nil && f.try(target, v) {
			f.useTokens(i)
		}
	}
}

// numberSign drops the number sign a request writes before an identifier or
// a number in digits ("order #100482", "issue #12"): it says "number", as
// in "order no. 100482", and is no character of the id; a parameter named
// for neither keeps it ("#general" is a channel).
func numberSign(p *property, raw string) string {
	digits, ok := hashDigits(strings.TrimSpace(raw))
	if !ok {
		return raw
	}
	if p.typ == "integer" || p.typ == "number" || isIDProp(p) || fitsName(p, identifierWords) {
		return digits
	}
	return raw
}

// prefixedCode is a code that opens with letters naming what it is: "SKU-300",
// "INV-2041", "ORD7731".
var prefixedCode = regexp.MustCompile(`^([A-Za-z]{2,})-?[0-9][A-Za-z0-9-]*$`)

// prefixedID fills, from a code whose letters name what it is ("SKU-300",
// "INV-2041"), the one missing text parameter named by them: a word of its
// name equal to the letters, or opening with three or more of them (INV
// → invoice_id). It reports whether it placed the code.
func (f *filler) prefixedID(i int, v string) bool {
	m := prefixedCode.FindStringSubmatch(v)
	if m == nil {
		return false
	}
	letters := strings.ToLower(m[1])
	target := f.soleMissingOf(func(p *property) bool {
		for _, w := range p.words {
			if w == letters || len(letters) >= 3 && strings.HasPrefix(w, letters) {
				return true
			}
		}
		return false
	}, false)
	if target == nil || !f.try(target, v) {
		return false
	}
	f.useTokens(i)
	return true
}
