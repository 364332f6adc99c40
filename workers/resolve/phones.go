package resolve

import "strings"

// Spaced phones: an international number is mostly written in groups
// ("+34 612 345 678", "+1 415 555 0199"), one token each, and isPhoneLike
// reads a number written as one word: the groups were left for other
// parameters (a first name took "+34" …) or reported.

// applySpacedPhones is the rule spaced_phones: a + and a country code, then
// groups of two to four digits, 8 to 15 digits in all, to the one missing
// phone parameter, joined (E.164: "+34612345678").
func (f *filler) applySpacedPhones() {
	p := f.soleMissingOf(func(p *property) bool { return p.phone }, false)
	if p == nil {
		return
	}
	for i := range f.toks {
		last, number := f.spacedPhoneAt(i)
		if last > i && f.try(p, number) {
			f.useTokens(rangeIdx(i, last)...)
			return
		}
	}
}

// takesPhone: p takes a phone number, by a word of its name or by its
// description; read once per manifest (property.phone).
func takesPhone(p *property) bool {
	return fitsName(p, phoneNames) || describesPhone(p)
}

// spacedPhoneAt reads a phone number in groups from token i: its last token
// and the number joined, or -1.
func (f *filler) spacedPhoneAt(i int) (int, string) {
	cc, ok := strings.CutPrefix(f.toks[i].value, "+")
	if !ok || !allDigits(cc) || len(cc) > 3 || !f.free(i) {
		return -1, ""
	}
	digits, last := cc, i
	for k := i + 1; k < len(f.toks) && f.free(k) && !endsClause(f.toks[k-1].raw); k++ {
		g := f.toks[k].value
		if !allDigits(g) || len(g) < 2 || len(g) > 4 {
			break
		}
		digits, last = digits+g, k
	}
	if last == i || len(digits) < 8 || len(digits) > 15 {
		return -1, ""
	}
	return last, "+" + digits
}
