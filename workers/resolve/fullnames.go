package resolve

import "strings"

// Full names: a CRM or sign-up tool takes a person's name in two parameters
// (firstName and lastName, given_name and family_name, surname) and a
// request writes it whole ("add a customer: Maria Lopez"). The name rules
// fill one text parameter with a name, so the whole name went to the first
// name, or nothing did and the two words were reported.

var (
	// givenNames and familyNames are the normalized names of the two
	// parameters.
	givenNames  = setOf("firstname", "givenname", "forename", "first")
	familyNames = setOf("lastname", "familyname", "surname", "last")
)

// applyFullNames is the rule full_names: a name of two capitalised words,
// a whole name (the tail of "Ana Maria Berg" is none), to the missing
// given- and family-name parameters, the first word and the last.
func (f *filler) applyFullNames() {
	given := f.soleMissingOf(func(p *property) bool { return givenNames[p.norm] }, false)
	family := f.soleMissingOf(func(p *property) bool { return familyNames[p.norm] }, false)
	if given == nil || family == nil {
		return
	}
	// Run by run: reading a run from each of its words was quadratic in a
	// long capitalised request.
	for i := 0; i < len(f.toks); i++ {
		end := f.capRun(i)
		if end < 0 {
			continue
		}
		if end == i+1 && !(i > 0 && f.capRun(i-1) >= i) && !allToolWords(f, i, i+1) && personWord(f.toks[i].raw) && personWord(f.toks[i+1].raw) &&
			f.try(given, f.toks[i].value) && f.try(family, f.toks[i+1].value) {
			f.useTokens(i, i+1)
			return
		}
		i = end
	}
}

// personWord: raw is a word of a person's name, letters (and an
// apostrophe or hyphen: O'Neil, Smith-Jones) only; "LAMP-22" or
// "ORD-5512" is a code.
func personWord(raw string) bool {
	v := cleanValue(raw)
	return v != "" && !strings.ContainsFunc(v, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '\'' || r == '-' || r > 127)
	}) && v != strings.ToUpper(v)
}
