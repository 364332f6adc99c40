package resolve

import (
	"slices"
	"strings"
)

// A name after "a" or "an" ("book an Uber", "get me a Lyft") is one of a
// kind, the brand of what is asked for, not a place or a person (the
// guard kindAfterArticle keeps it from those); after via, using or
// through ("a ride via Lyft") it is what the thing is done with. Either
// way it is the value of the tool's parameter for the service or brand to
// use, which had stayed empty while the name was reported for a place.

// providerNames name, or describe, a parameter for the service, brand or
// app a thing is had from.
var providerNames = setOf("service", "provider", "app", "application", "brand", "company", "platform", "operator", "carrier", "vendor", "network")

// providerCues say that the name after them is what a thing is done with.
var providerCues = setOf("a", "an", "via", "using", "through")

// applyProviders is the rule providers: a name after a/an, via, using or
// through fills the one missing text parameter whose description writes
// it ("uber, lyft or taxi"), else the one named or described for a
// service, brand or app.
func (f *filler) applyProviders() {
	for i := 1; i < len(f.toks); i++ {
		v, last, ok := f.cuedName(i, providerCues)
		if !ok {
			continue
		}
		lower := strings.ToLower(v)
		target := f.soleMissingOf(func(p *property) bool { return describesWord(p, lower) }, false)
		if target == nil {
			target = f.soleMissingOf(func(p *property) bool { return fitsName(p, providerNames) || describesAny(p, providerNames) }, false)
		}
		if target != nil && f.try(target, v) {
			f.useTokens(rangeIdx(i, last)...)
		}
	}
}

// cuedName reads the capitalised name at token i after a cue word of
// cues ("an Uber", "for Acme Corp"): its text and its last token. A name
// of the tool's own words, a month, a weekday or a language is no one's
// ("a Friday meeting", "a French menu": when or which, not whose).
func (f *filler) cuedName(i int, cues map[string]bool) (string, int, bool) {
	if !cues[f.toks[i-1].word] || !f.free(i-1) || endsClause(f.toks[i-1].raw) {
		return "", 0, false
	}
	last := f.capRun(i)
	if last < 0 {
		return "", 0, false
	}
	v := f.spanValue(i, last)
	if lower := strings.ToLower(v); allToolWords(f, i, last) || timeName(lower) || languages[lower] {
		return "", 0, false
	}
	return v, last, true
}

// timeName: v names a month or a day of the week.
func timeName(v string) bool {
	_, day := weekdays[v]
	return months[v] > 0 || day
}

// ownerNames name, or describe, a parameter for the person or
// organisation a thing belongs to or is for.
var ownerNames = setOf("customer", "client", "user", "person", "company", "organization", "organisation", "org",
	"owner", "member", "employee", "tenant", "patient", "student", "buyer")

// ownerCues: the word before an owner's name ("invoices for Acme Corp").
var ownerCues = setOf("for")

// applyOwners is the rule owners: a capitalised name after "for"
// ("overdue invoices for Acme Corp") fills the one missing text parameter
// named for whom the tool's things belong to (customer, client, user …)
// and described as their name or id, optional or not: the names rule
// fills required ones only, and the call had listed everyone's. Not when
// a place parameter is missing too: "for Paris" may be a place.
func (f *filler) applyOwners() {
	target := f.soleMissingOf(func(p *property) bool {
		return fitsName(p, ownerNames) && (describesWord(p, "name") || describesWord(p, "id"))
	}, false)
	if target == nil || slices.ContainsFunc(f.s.props, func(p *property) bool { return f.missing(p) && isPlaceProp(p) }) {
		return
	}
	for i := 1; i < len(f.toks); i++ {
		v, last, ok := f.cuedName(i, ownerCues)
		if ok && f.try(target, v) {
			f.useTokens(rangeIdx(i-1, last)...)
			return
		}
	}
}
