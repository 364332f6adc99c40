package resolve

import (
	"slices"
	"sort"
	"strings"
	"unicode"
)

// placeWords name parameters that hold a place.
var placeWords = setOf("location", "city", "country", "state", "region", "area", "place", "destination", "venue", "near",
	"address", "county", "province", "continent", "territory", "town", "neighborhood", "neighbourhood", "site", "room")

// placePreps introduce a place; weakPlacePreps may introduce one ("the
// crime rate for Chicago") but as often something else, so a place after
// a strong one is read first.
var (
	placePreps     = setOf("in", "at", "near", "from", "across", "within", "around", "throughout", "inside")
	weakPlacePreps = setOf("of", "for")
)

// isPlaceProp: p takes a place, by its name ("city", "pickup_location",
// "near") or the noun its description names ("City name").
func isPlaceProp(p *property) bool {
	return stringProp(p) && !isIDProp(p) && (fitsName(p, placeWords) || placeWords[p.noun])
}

// languages are the language names a language parameter takes.
var languages = setOf("english", "spanish", "french", "german", "italian", "portuguese", "dutch", "russian", "chinese",
	"mandarin", "cantonese", "japanese", "korean", "arabic", "hindi", "bengali", "urdu", "turkish", "polish", "swedish",
	"norwegian", "danish", "finnish", "greek", "hebrew", "thai", "vietnamese", "indonesian", "malay", "czech",
	"hungarian", "romanian", "ukrainian", "persian", "farsi", "swahili", "tagalog", "filipino", "latin", "catalan")

func isLanguageProp(p *property) bool {
	return stringProp(p) && fitsName(p, languagePropNames)
}

// languagePropNames name a parameter that takes a language (made once:
// isLanguageProp is asked of every property of every request).
var languagePropNames = setOf("language", "languages", "lang", "locale", "tongue")

// languagePreps come before a language: "in French", "into german".
var languagePreps = setOf("in", "into", "to", "from")

// applyLanguages fills language parameters from language names ("in
// Portuguese"). With a source and a target parameter, the language after
// "from" is the source and the one after "to", "into" or "in" the target.
func (f *filler) applyLanguages() {
	var props []*property
	for _, p := range f.s.props {
		if f.missing(p) && isLanguageProp(p) {
			props = append(props, p)
		}
	}
	if len(props) == 0 {
		return
	}
	for i := range f.toks {
		if !f.free(i) || !languages[f.toks[i].word] {
			continue
		}
		prev := ""
		if i > 0 {
			prev = f.toks[i-1].word
		}
		// Written in lower case, a language word is one only where a
		// language goes ("into german"); elsewhere it may be prose.
		if !capWord(f.toks[i].raw) && !languagePreps[prev] {
			continue
		}
		var target *property
		for _, p := range props {
			if !f.missing(p) {
				continue
			}
			source := fitsName(p, setOf("source", "from", "input", "original", "origin"))
			switch {
			case len(props) == 1, prev == "from" && source, prev != "from" && !source:
				target = p
			}
			if target != nil {
				break
			}
		}
		if target == nil {
			// Order of mention: the first language written for the
			// first parameter still missing.
			for _, p := range props {
				if f.missing(p) {
					target = p
					break
				}
			}
		}
		if target != nil && f.try(target, f.languageValue(target, i)) {
			f.useTokens(i)
			if languagePreps[prev] {
				f.useTokens(i - 1)
			}
		}
	}
}

// applyPlaces fills place parameters from a name after a preposition of
// place ("in New York", "at the Staples Center", "from Africa"), and
// failing that from a plain noun ending the clause ("the water quality of
// the lake", "near the specified address" → "address").
func (f *filler) applyPlaces() {
	f.applySellers()
	f.applyTriggerPlaces()
	// A room before the tool's noun is read once the places after a
	// preposition are: "the lamp in the den" says it first.
	defer f.applyRoomNouns()
	var props []*property
	for _, p := range f.s.props {
		if f.missing(p) && isPlaceProp(p) {
			props = append(props, p)
		}
	}
	if len(props) == 0 {
		return
	}
	next := func() *property {
		for _, p := range props {
			if f.missing(p) {
				return p
			}
		}
		return nil
	}
	// What comes "from" a place does not go to it: "from Thai Garden" is
	// no delivery address, "from the office" no drop-off.
	nextFor := func(i int) *property {
		if f.toks[i].word != "from" {
			return next()
		}
		for _, p := range props {
			if f.missing(p) && !goesTo(p) {
				return p
			}
		}
		return nil
	}
	for _, preps := range []map[string]bool{placePreps, weakPlacePreps} {
		for i := 0; i < len(f.toks) && next() != nil; i++ {
			if !f.free(i) || !preps[f.toks[i].word] || endsClause(f.toks[i].raw) {
				continue
			}
			k := i + 1
			if f.free(k) && determiners[f.toks[k].word] {
				k++
			}
			last := f.capRun(k)
			if last < 0 {
				last = f.namedVenue(nextFor(i), k)
			}
			if last < 0 && f.free(k) && houseNumber(f.toks[k].word) {
				// "at 22 Elm Street": the address keeps its number.
				if l := f.capRun(k + 1); l >= 0 && f.withHouseNumber(k+1, l) == k {
					last = l
				}
			}
			if last < 0 || languages[f.toks[k].word] && last == k || f.compoundModifier(k, last) {
				continue
			}
			if last == k && timeName(f.toks[k].word) {
				continue // "in March", "on Friday": when, not where
			}
			if end, ok := f.placeList(props, k, last); ok {
				i = end
				continue
			}
			last = f.withVenue(f.wholePlace(k, last))
			if p := nextFor(i); p != nil && f.try(p, f.spanValue(k, last)) {
				f.useTokens(rangeIdx(i, last)...)
				i = last
			}
		}
	}
	for i := 0; i < len(f.toks) && next() != nil; i++ {
		if !f.free(i) || !placePreps[f.toks[i].word] && f.toks[i].word != "of" {
			continue
		}
		k := i + 1
		for f.free(k) && (determiners[f.toks[k].word] || vague[f.toks[k].word]) {
			k++
		}
		// A part of the day, a weekday or a span ("in the evening") says
		// when, not where.
		// A compound noun is one place: "in the living room".
		end := k
		if f.compoundAt(k) && f.free(k+1) {
			end = k + 1
		}
		if k == i+1 || !f.contentWord(k) || timeWord(f.toks[k].word) || end+1 < len(f.toks) && !endsClause(f.toks[end].raw) {
			continue
		}
		if p := nextFor(i); p != nil && f.try(p, f.spanValue(k, end)) {
			f.useTokens(rangeIdx(i, end)...)
		}
	}
}

// applyNames gives the names still unused (capitalised runs not opening a
// sentence) to the required free-text parameters still missing, in
// order: "the optimism score for Alex Johnson" → person. Identifier, date,
// address-like and numeric parameters take no names, nor the free-text
// parameter, which takes the whole request.
func (f *filler) applyNames(freetext *property) {
	var props []*property
	for _, p := range f.s.props {
		if p != freetext && p.required && f.missing(p) && stringProp(p) && !isIDProp(p) && !p.date && !isTimeProp(p) && !f.shaped(p) {
			props = append(props, p)
		}
	}
	for i := 0; i < len(f.toks) && len(props) > 0; i++ {
		last := f.capRun(i)
		if last < 0 {
			continue
		}
		v := f.spanValue(i, last)
		if allToolWords(f, i, last) || f.compoundModifier(i, last) || months[strings.ToLower(v)] > 0 || languages[strings.ToLower(v)] {
			i = last
			continue
		}
		if f.notAPlace(props[0], i, last) {
			// "get me an Uber": the service, not where to go.
			i = last
			continue
		}
		first := f.withHouseNumber(i, last)
		if f.try(props[0], f.spanValue(first, last)) {
			f.useTokens(rangeIdx(first, last)...)
			props = props[1:]
		}
		i = last
	}
	// One code left (an address, a version, a serial) and one text
	// parameter missing: "deploy to the server at IP address 10.0.0.7".
	var missing []*property
	for _, p := range f.s.props {
		if p != freetext && p.required && f.missing(p) && stringProp(p) && !p.date && !isTimeProp(p) {
			missing = append(missing, p)
		}
	}
	if len(missing) != 1 {
		return
	}
	var codes []int
	for i, t := range f.toks {
		if !t.used && isCode(t.value) {
			codes = append(codes, i)
		}
	}
	if len(codes) == 1 && f.try(missing[0], f.toks[codes[0]].value) {
		f.useTokens(codes[0])
	}
}

func allToolWords(f *filler, a, b int) bool {
	for k := a; k <= b; k++ {
		if !f.tool[f.toks[k].word] {
			return false
		}
	}
	return true
}

// shaped: a property named for a path, URL or address, which a name
// does not fill, unless its description says a name will do ("phone
// number or contact name").
func (f *filler) shaped(p *property) bool {
	if d := p.desc; strings.Contains(d, "contact name") || strings.Contains(d, "or name") || strings.Contains(d, "person") {
		return false // "Phone number or contact name": a name will do
	}
	for _, sh := range shapes {
		if fitsName(p, sh.names) {
			return true
		}
	}
	return false
}

// applyLooseNumbers: "55 years old" is an age; a number before a word of
// a numeric parameter's name is its value ("2 employees", "15 years of
// experience"); and when one numeric parameter is missing and one number
// is unused, they belong together.
func (f *filler) applyLooseNumbers() {
	var nums []*property
	for _, p := range f.s.props {
		if f.missing(p) && (p.typ == "integer" || p.typ == "number") && len(p.enum) == 0 {
			nums = append(nums, p)
		}
	}
	if len(nums) == 0 {
		return
	}
	isNum := func(i int) bool {
		if !f.free(i) {
			return false
		}
		_, ok := parseNumber(f.toks[i].value)
		return ok || numberWordAt(f.toks[i].word)
	}
	for i := range f.toks {
		if f.numberNoun(nums, i) {
			continue
		}
		// By its noun a number may be written as a word: "the last three lines".
		v, ok := numeral(f.toks[i].raw)
		if !f.free(i) || !ok || i+1 >= len(f.toks) {
			continue
		}
		next := f.toks[i+1].word
		for _, p := range nums {
			if !f.missing(p) {
				continue
			}
			age := p.norm == "age" && (next == "years" || next == "year") && i+2 < len(f.toks) && f.toks[i+2].word == "old"
			if !age && !f.uniqueNameWord(p, nums, next) {
				continue
			}
			if f.try(p, v) {
				f.useTokens(i, i+1)
				f.useCountFrame(p, i)
				break
			}
		}
	}
	f.describedNumbers(nums)
	f.boundedCount(nums)
	var missingReq []*property
	for _, p := range nums {
		if f.missing(p) && p.required {
			missingReq = append(missingReq, p)
		}
	}
	var free []int
	for i := range f.toks {
		if isNum(i) && !isClock(f.toks[i].word) && !f.codesNumber(i) {
			free = append(free, i)
		}
	}
	if len(missingReq) == 1 && len(free) == 1 && f.looseFits(missingReq[0], free[0]) && f.try(missingReq[0], looseNumeral(f.toks[free[0]])) {
		f.useTokens(free[0])
		f.useCountFrame(missingReq[0], free[0])
		return
	}
	// The tool's only number, optional, and the request's only number:
	// "get resource links 4" → count.
	if only := f.onlyNumberParam(); only != nil && len(missingReq) == 0 && len(free) == 1 && f.looseFits(only, free[0]) && f.try(only, looseNumeral(f.toks[free[0]])) {
		f.useTokens(free[0])
		f.useCountFrame(only, free[0])
	}
}

// boundedCount reads a count written with its bound ("top 5", "max 30")
// or before a noun for a tool's answers ("5 results") for the one missing
// integer parameter that counts what the tool returns (named limit, or
// counting a noun: "Maximum number of results"): the bound says which of
// several numbers is the count, where the loose reading below takes a
// number only when it is the one left.
func (f *filler) boundedCount(nums []*property) {
	var target *property
	for _, p := range nums {
		if p.typ == "integer" && (fitsName(p, limitNames) || len(p.countedNouns) > 0) {
			if target != nil {
				return // which one is not said
			}
			target = p
		}
	}
	if target == nil {
		return
	}
	for i := range f.toks {
		v, ok := numeral(f.toks[i].raw)
		if !f.free(i) || !ok {
			continue
		}
		bounded := f.free(i-1) && countBounds[f.toks[i-1].word] && !endsClause(f.toks[i-1].raw)
		counted := !endsClause(f.toks[i].raw) && f.free(i+1) && resultNouns[f.toks[i+1].word]
		if (bounded || counted) && f.try(target, v) {
			f.useTokens(i)
			f.useCountFrame(target, i)
			return
		}
	}
}

// limitNames name a parameter for how many answers a tool returns.
var limitNames = setOf("limit")

// numberNoun reads a number made one word with its noun ("a 5-day
// forecast", "a 10-minute walk", "a 3-night stay") for the one missing
// numeric parameter named for the noun (days, minutes, nights): left
// out, the parameter's default would run instead of the number said. A
// noun no parameter is named for ("a 5-star hotel" with no stars) fills
// nothing and stays reported.
func (f *filler) numberNoun(nums []*property, i int) bool {
	num, noun, ok := strings.Cut(f.toks[i].word, "-")
	v, isNum := numeral(num)
	if !f.free(i) || !ok || !isNum || noun == "" || strings.ContainsFunc(noun, func(r rune) bool { return !unicode.IsLetter(r) }) {
		return false
	}
	for _, p := range nums {
		if f.missing(p) && (f.uniqueNameWord(p, nums, noun) || f.uniqueNameWord(p, nums, noun+"s")) && f.try(p, v) {
			f.useTokens(i)
			return true
		}
	}
	return false
}

// looseFits: the number at token i may be p's for being the one left. A
// length written with its unit is not, for a parameter that takes one in
// a unit: the lengths rule converts those it can, and "for 90 days" is no
// 90 of "Term in months". A number a thing goes up, down or by ("bump the
// heating up 2 degrees") is a change, no target temperature: only a
// parameter for a change takes it.
func (f *filler) looseFits(p *property, i int) bool {
	if f.changeBy(i) && !changeParam(p) {
		return false
	}
	_, unit, width := f.spanAt(i)
	switch {
	case width == 0:
		return true
	case p.spanUnit != "":
		return false
	}
	// "the logs for the last 15 minutes": a length of time is no count
	// of lines; only a parameter for a length, or one named for its unit
	// (days), takes it.
	return fitsName(p, spanNames) || describesAny(p, spanNames) || slices.ContainsFunc(p.words, func(w string) bool {
		return isHead(unit, w) || isHead(w, unit)
	})
}

// describedNumbers reads a number right before or after a noun that the
// description of one missing numeric parameter writes and no other
// parameter's name or description does: "a 300000 loan" for "Loan
// amount", "rooms 3" for "Number of rooms". A word after "per" in a
// description counts what the value is spread over ("Price per night"),
// not the value.
func (f *filler) describedNumbers(nums []*property) {
	for i := range f.toks {
		v, ok := numeral(f.toks[i].raw)
		if !f.free(i) || !ok {
			continue
		}
		if f.numberChoice(i) {
			continue // "4 or 5 links": which is not said
		}
		for _, k := range []int{i + 1, i - 1} {
			first := min(i, k)
			if !f.free(k) || endsClause(f.toks[first].raw) || f.verbSlot(k) {
				continue // "scale 2 by 3": the verb is no noun
			}
			if p := f.describedBy(nums, f.toks[k].word); p != nil && f.try(p, v) {
				f.useTokens(i, k)
				f.useCountFrame(p, i)
				break
			}
		}
	}
}

// choiceJoins join two numbers into a choice or a range.
var choiceJoins = setOf("or", "to", "and", "-")

// numberChoice: the number at token i is one of two written as a choice
// or a range ("4 or 5", "2 to 3", "1 and 2").
func (f *filler) numberChoice(i int) bool {
	numAt := func(k int) bool {
		if k < 0 || k >= len(f.toks) {
			return false
		}
		_, ok := numeral(f.toks[k].raw)
		return ok
	}
	joinAt := func(k int) bool { return k >= 0 && k < len(f.toks) && choiceJoins[f.toks[k].word] }
	return joinAt(i+1) && numAt(i+2) || joinAt(i-1) && numAt(i-2)
}

// describedBy is the one missing parameter of nums whose description
// writes noun w, when no other parameter's name or description does.
func (f *filler) describedBy(nums []*property, w string) *property {
	if len(w) < 3 || commonWord(w) || isNumber(w) {
		return nil
	}
	var found *property
	for _, p := range f.s.props {
		if f.isNameWord(p, w) {
			return nil
		}
		if !describesNoun(p, w) {
			continue
		}
		if found != nil || !f.missing(p) || !slices.Contains(nums, p) {
			return nil
		}
		found = p
	}
	return found
}

// describesNoun: p's description writes w, singular or plural, and not
// after "per".
func describesNoun(p *property, w string) bool {
	for _, d := range p.descNouns {
		if isHead(w, d) || isHead(d, w) {
			return true
		}
	}
	return false
}

// descNounsOf are the words of a lower-case description, trimmed of
// punctuation, that may name what a number counts: all but a word after
// "per", which names what the value is spread over ("Price per night").
// The description is split once per manifest (property.descNouns), not
// for every word a number stands next to.
func descNounsOf(desc string) []string {
	fields := strings.FieldsFunc(desc, func(r rune) bool { return r == ' ' || r == ',' || r == ';' || r == '(' || r == ')' })
	var nouns []string
	for i, d := range fields {
		if i == 0 || fields[i-1] != "per" {
			nouns = append(nouns, trimPunct(d))
		}
	}
	return nouns
}

// codesNumber: the number at token i is part of the code in capitals
// written right before it ("switch to VGA 1", "a PS 5"), the name of the
// venue written right before it ("in room 4", "at gate 12"), or the code
// a noun says it is ("zip code 94103", "extension 204"): a name's number
// and no quantity; a currency's code before an amount ("USD 100") is not
// such a code.
func (f *filler) codesNumber(i int) bool {
	if i == 0 || endsClause(f.toks[i-1].raw) {
		return false
	}
	if venueNouns[f.toks[i-1].word] || codeNouns[f.toks[i-1].word] {
		return true
	}
	if !capsCode(f.toks[i-1].value) {
		return false
	}
	if code, _ := f.currencyAt(i - 1); code != "" {
		return false
	}
	return true
}

// onlyNumberParam is the schema's one numeric parameter when it has
// exactly one and it is still missing, else nil.
func (f *filler) onlyNumberParam() *property {
	var only *property
	for _, p := range f.s.props {
		if p.typ == "integer" || p.typ == "number" {
			if only != nil {
				return nil
			}
			only = p
		}
	}
	if only == nil || !f.missing(only) || len(only.enum) > 0 {
		return nil
	}
	return only
}

// uniqueNameWord: word (or its plural) is a word of p's name and of no
// other missing numeric parameter's.
func (f *filler) uniqueNameWord(p *property, nums []*property, word string) bool {
	has := func(q *property) bool {
		for _, w := range q.words {
			if len(w) > 2 && isHead(word, w) && !nameSuffixes[w] {
				return true
			}
		}
		return false
	}
	if !has(p) {
		return false
	}
	for _, q := range nums {
		if q != p && f.missing(q) && has(q) {
			return false
		}
	}
	return true
}

// compoundModifier: a lone acronym before a common noun modifies it ("the
// IP address", "the EBPCJ system") rather than being a name.
func (f *filler) compoundModifier(first, last int) bool {
	if first != last || !f.contentWord(last+1) {
		return false
	}
	w := trimPunct(f.toks[first].raw)
	return w == strings.ToUpper(w) && !endsClause(f.toks[first].raw)
}

// isCode: a word that is a value by its looks: letters and digits mixed
// (BA456), a dotted address or version (192.168.1.7), a path or address.
func isCode(v string) bool {
	if len(v) < 2 || isClock(v) {
		return false
	}
	if _, isNum := parseNumber(v); isNum {
		return false
	}
	digit, letter := false, false
	for _, r := range v {
		digit = digit || unicode.IsDigit(r)
		letter = letter || unicode.IsLetter(r)
	}
	if digit && wordyHyphen(v) {
		// "32-year-old", "5-star": a number made an adjective.
		return false
	}
	return digit && letter || digit && strings.Count(v, ".") >= 2 || strings.ContainsAny(v, "/@")
}

// wordyHyphen: a hyphenated part that is a lower-case word of three
// letters or more.
func wordyHyphen(v string) bool {
	parts := strings.Split(v, "-")
	for _, p := range parts[1:] {
		if len(p) >= 3 && strings.ToLower(p) == p && strings.IndexFunc(p, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
			return true
		}
	}
	return false
}

// objectPreps introduce the thing a request is about.
var objectPreps = setOf("for", "of", "about", "on", "using", "regarding", "concerning", "into")

// inAfterToolWord: token i is "in" right after one of the tool's own
// words, where it opens what the tool's thing is of ("anomalies in
// signups", "errors in the checkout service"), not a place.
func (f *filler) inAfterToolWord(i int) bool {
	return i > 0 && f.toks[i].word == "in" && f.tool[f.toks[i-1].word] && !endsClause(f.toks[i-1].raw)
}

// generic nouns say what kind of answer is wanted, not what it is about.
var generic = setOf("information", "info", "details", "detail", "data", "list", "report", "summary", "overview",
	"status", "result", "results", "analysis", "help", "assistance", "number", "amount", "level", "way", "ways",
	"kind", "type", "types", "rate", "value", "values", "purposes", "purpose", "basis", "use", "example",
	"industry", "sector", "field", "domain", "area", "setting", "context", "system", "process")

// applyObject gives the one required text parameter still missing the
// object of the request: the first plain noun phrase after for, of, about,
// on, using … that is not the tool's own words ("the mass transfer rate for
// ethanol" → substance: ethanol; "train a classifier using the wine
// quality dataset" → data).
func (f *filler) applyObject(freetext *property) {
	var target *property
	for _, p := range f.s.props {
		if p.required && f.missing(p) && p != freetext {
			if !stringProp(p) || isIDProp(p) || p.date || isTimeProp(p) || target != nil {
				return
			}
			target = p
		}
	}
	if target == nil {
		return
	}
	for i := range f.toks {
		if !f.free(i) || !objectPreps[f.toks[i].word] && !f.inAfterToolWord(i) || endsClause(f.toks[i].raw) {
			continue
		}
		k := i + 1
		for f.free(k) && (determiners[f.toks[k].word] || vague[f.toks[k].word]) {
			k++
		}
		last := k - 1
		for n := 0; n < 3 && f.contentWord(last+1) && !generic[f.toks[last+1].word] && !f.isNameWord(target, f.toks[last+1].word); n++ {
			last++
			if endsClause(f.toks[last].raw) {
				break
			}
		}
		if last >= k-1 && f.possessiveWord(last+1) && !endsClause(f.toks[max(last, 0)].raw) {
			// "into the hiking crew's group chat": the owner, whole, when
			// what it owns is the tool's thing or the target's noun.
			if !f.ownsToolThing(target, last+2) {
				continue
			}
			last++
		}
		if last < k {
			continue
		}
		if strings.HasSuffix(f.toks[last].word, "'s") {
			if f.try(target, f.spanValue(k, last)) {
				f.useTokens(rangeIdx(i, last)...)
				return
			}
			continue
		}
		// The phrase must end the clause, or meet a preposition or a
		// generic noun ("the electronics industry"); before the tool's own
		// words it only qualifies them ("minimalist landscape architecture").
		if n := last + 1; !endsClause(f.toks[last].raw) && n < len(f.toks) &&
			(f.contentWord(n) && !generic[f.toks[n].word] || f.tool[f.toks[n].word] || f.isNameWord(target, f.toks[n].word)) {
			continue
		}
		if f.try(target, f.spanValue(k, last)) {
			f.useTokens(rangeIdx(i, last)...)
			return
		}
	}
}

// possessiveWord: token i is a content word with "'s" ("crew's").
func (f *filler) possessiveWord(i int) bool {
	if !f.free(i) {
		return false
	}
	w := f.toks[i].word
	stem, ok := strings.CutSuffix(w, "'s")
	if !ok || stem == "" || commonWord(stem) || f.tool[stem] || pronounValues[stem] {
		return false
	}
	for _, r := range stem {
		if !unicode.IsLetter(r) && r != '-' {
			return false
		}
	}
	return true
}

// ownsToolThing: the words from token i to the end of the clause are the
// tool's own words, words other rules used, or target's noun or a word of
// its description ("…'s
// Telegram group"), at least one of them: what the owner has is the thing
// the tool acts on.
func (f *filler) ownsToolThing(target *property, i int) bool {
	n := 0
	desc := strings.FieldsFunc(strings.ToLower(target.desc), func(r rune) bool { return !unicode.IsLetter(r) })
	for ; i < len(f.toks); i++ {
		w := f.toks[i].word
		if f.free(i) && !f.tool[w] && !f.isNameWord(target, w) && w != "" && (commonWord(w) || !slices.Contains(desc, w)) {
			return false
		}
		n++
		if endsClause(f.toks[i].raw) {
			break
		}
	}
	return n > 0
}

// placeRank orders place words from the finest to the coarsest.
var placeRank = map[string]int{"address": 0, "venue": 1, "site": 1, "place": 1, "neighborhood": 2, "neighbourhood": 2,
	"city": 3, "town": 3, "county": 4, "state": 5, "province": 5, "region": 5, "territory": 5, "country": 6, "continent": 7}

func placeRankOf(p *property) (int, bool) {
	for _, w := range p.words {
		if r, ok := placeRank[w]; ok {
			return r, true
		}
	}
	return 0, false
}

// placeList reads a written address, finest part first ("Los Angeles,
// California, USA"), into the place parameters from the finest to the
// coarsest: city, state, country. It needs two parts or more and as many
// ranked place parameters missing, and returns the last token used.
func (f *filler) placeList(props []*property, k, last int) (int, bool) {
	spans := [][2]int{{k, last}}
	for end := last; strings.HasSuffix(f.toks[end].raw, ",") && f.free(end+1); {
		nl := f.capRun(end + 1)
		if nl < 0 {
			break
		}
		spans = append(spans, [2]int{end + 1, nl})
		end = nl
	}
	if len(spans) < 2 {
		return 0, false
	}
	var ranked []*property
	for _, p := range props {
		if _, ok := placeRankOf(p); ok && f.missing(p) {
			ranked = append(ranked, p)
		}
	}
	if len(ranked) < len(spans) {
		return 0, false
	}
	sort.SliceStable(ranked, func(a, b int) bool {
		ra, _ := placeRankOf(ranked[a])
		rb, _ := placeRankOf(ranked[b])
		return ra < rb
	})
	// The coarsest parts go to the coarsest parameters: with city, state
	// and country missing, "Paris, France" is a city and a country.
	ranked = append(ranked[:1], ranked[len(ranked)-len(spans)+1:]...)
	for n, sp := range spans {
		if f.try(ranked[n], f.spanValue(sp[0], sp[1])) {
			f.useTokens(rangeIdx(sp[0], sp[1])...)
		}
	}
	return spans[len(spans)-1][1], true
}

// venueNouns are the kinds of place a name is given to inside a site:
// "room Orion", "building West", "hall C".
var venueNouns = setOf("room", "building", "hall", "suite", "office", "floor", "wing", "studio", "lab", "gate", "terminal", "platform")

// codeNouns say that the number after them is a code: "zip code 94103",
// "postcode 10115", "extension 204", "flight 442".
var codeNouns = setOf("code", "postcode", "zipcode", "zip", "extension", "ext", "flight")

// namedVenue is the last token of a place written as its kind and its
// name ("in room Orion", "at building West", "in room 4", "at gate B12")
// from token k, for a place parameter named for that kind or whose
// description writes it ("Room or address"), kind and name whole; else
// -1. A parameter for a city or area does not take "room Orion".
func (f *filler) namedVenue(p *property, k int) int {
	if p == nil || !f.free(k) || endsClause(f.toks[k].raw) {
		return -1
	}
	noun := f.toks[k].word
	if !venueNouns[noun] || !describesWord(p, noun) && !fitsName(p, setOf(noun)) {
		return -1
	}
	if f.venueCode(k + 1) {
		return k + 1
	}
	return f.capRun(k + 1)
}

// wholePlace is where the place named from token k to last ends: past
// last when a comma parts it from its state, province or country and the
// places table has the two whole ("Austin, Texas", "Lyon, France",
// "Portland, Maine"), or the region is written as its postal or country
// code ("Springfield, IL", "Leeds, UK"): one place, for a parameter that
// takes one, where placeList found no parameter for each part. Two
// places ("Paris, Rome", "Paris, then Rome") are no name of the table and
// stay apart.
func (f *filler) wholePlace(k, last int) int {
	if !strings.HasSuffix(f.toks[last].raw, ",") {
		return last
	}
	if _, end, ok := f.zonePlace(k); ok && end > last {
		return end
	}
	if f.free(last+1) && regionCode(f.toks[last+1].raw) {
		return last + 1
	}
	return last
}

// regionCode: raw is a region's code as addresses write it after a
// city: two capitals (a US state's or Canadian province's postal code,
// an ISO 3166 country code: "IL", "ON", "UK"), or "USA". Not "OK" nor
// "US" alone ("Tulsa, OK" is rare beside "fine, OK?"), nor any code
// that ends its sentence with a question mark.
func regionCode(raw string) bool {
	code := strings.TrimRight(raw, ",.;:")
	if strings.HasSuffix(raw, "?") || code == "OK" {
		return false
	}
	if code == "USA" {
		return true
	}
	return len(code) == 2 && code[0] >= 'A' && code[0] <= 'Z' && code[1] >= 'A' && code[1] <= 'Z'
}

// destinationNames and originNames are the names of parameters that take
// where a trip ends and where it starts.
var (
	destinationNames = setOf("destination", "dropoff", "dest", "arrival")
	originNames      = setOf("origin", "pickup", "departure")
)

// applyDestinations reads where a trip goes, after "to", and where it
// starts, after "from" (tripPlace): in lower case ("book a ride to the
// airport from my office", "from work"), which the places rule does not
// read, or a name ("bike to Golden Gate Park"), which the names rule
// leaves to a destination it counts as a path's. The phrase after the
// preposition is no verb ("to call").
func (f *filler) applyDestinations() {
	for _, side := range []struct {
		prep  string
		names map[string]bool
	}{{"to", destinationNames}, {"from", originNames}} {
		var target *property
		for _, p := range f.s.props {
			if f.missing(p) && stringProp(p) && len(p.enum) == 0 && !p.dateTime && fitsName(p, side.names) {
				target = p
				break
			}
		}
		if target == nil {
			continue
		}
		for i := 0; i+1 < len(f.toks); i++ {
			if !f.free(i) || f.toks[i].word != side.prep {
				continue
			}
			last := f.tripPlace(target, i+1)
			if last >= 0 && f.try(target, f.spanValue(i+1, last)) {
				f.useTokens(rangeIdx(i, last)...)
				break
			}
		}
		if side.prep == "to" && f.missing(target) {
			f.homeBound(target)
		}
	}
}

// homeBound reads "home" as where a trip goes, said with no "to" as
// English says it ("get me a cab home", "walk home"); not after a
// preposition ("at home", "from home") nor opening a compound ("home
// page").
func (f *filler) homeBound(p *property) {
	for i := 1; i < len(f.toks); i++ {
		prev := f.toks[i-1].word
		if f.free(i) && f.toks[i].word == "home" && !shortPreps[prev] && !prepositions[prev] && f.placeEnds(i) && f.try(p, "home") {
			f.useTokens(i)
			return
		}
	}
}

// bareRoutinePlaces are the places English names with no article after
// to and from ("from work", "to school").
var bareRoutinePlaces = setOf("home", "work", "school", "college", "university", "campus", "church", "downtown", "uptown", "town")

// tripPlace is the last token of the place a trip's end p is at, from
// token a: a phrase opening with a determiner or a possessive, to its
// clause's end or the next preposition, at most five words ("the
// airport", "my office"); a name, with its house number ("Golden Gate
// Park", "12 Oak Lane"), unless it is a service or a kind (notAPlace:
// "to an Uber"); or a place named bare ("work"). -1 when none is there.
func (f *filler) tripPlace(p *property, a int) int {
	if !f.free(a) {
		return -1
	}
	w := f.toks[a].word
	switch {
	case determiners[w] || possessives[w]:
		if last := f.placePhraseEnd(a); last > a {
			return last
		}
		return -1
	case describesFile(p):
		return -1 // a path's destination: "to Documents" may be a folder's name
	case bareRoutinePlaces[w] && f.placeEnds(a):
		return a
	}
	name := a
	if houseNumber(w) {
		name = a + 1
	}
	last := f.capRun(name)
	if last < 0 || f.notAPlace(p, name, last) {
		return -1
	}
	if f.possessiveWord(last) {
		return f.placePhraseEnd(last) // "Grandma's house"
	}
	return f.withVenue(last)
}

// withVenue is where a place that ends at token last ends with the venue
// inside it written after it, a venue's noun and its number or code
// ("JFK terminal 4", "Central Station platform 9B"), else last.
func (f *filler) withVenue(last int) int {
	if endsClause(f.toks[last].raw) || !f.free(last+1) || !venueNouns[f.toks[last+1].word] || !f.venueCode(last+2) {
		return last
	}
	return last + 2
}

// venueCode: token k is free and names a venue by a number or a code, as
// after its noun ("room 4", "gate B12").
func (f *filler) venueCode(k int) bool {
	if !f.free(k) {
		return false
	}
	v := f.toks[k].value
	_, isNum := parseNumber(v)
	return isNum || isCode(v)
}

// placeStops say when, not where, and end a place: "to the airport right
// now", "home tonight".
var placeStops = setOf("right", "now", "asap", "immediately", "please", "tomorrow")

// placePhraseEnd is the last token of the place phrase that token a
// opens: to its clause's end, a used word, the next preposition or a
// word saying when, at most five words.
func (f *filler) placePhraseEnd(a int) int {
	last := a
	for j := a; j < len(f.toks) && j-a < 5 && f.free(j); j++ {
		if j > a && (shortPreps[f.toks[j].word] || prepositions[f.toks[j].word] || placeStops[f.toks[j].word] || relativeDays[f.toks[j].word]) {
			break
		}
		last = j
		if endsClause(f.toks[j].raw) {
			break
		}
	}
	return last
}

// placeEnds: the place at token a is one word, ending its clause or
// followed by a preposition or a word saying when ("from work to …",
// "home tonight"), not the first word of a compound ("home page").
func (f *filler) placeEnds(a int) bool {
	if endsClause(f.toks[a].raw) || !f.free(a+1) {
		return true
	}
	n := f.toks[a+1].word
	return shortPreps[n] || prepositions[n] || placeStops[n] || relativeDays[n]
}

// possessives open a place a person owns: "to my office".
var possessives = setOf("my", "our", "your", "his", "her", "their")

// streetWords end the name of a street: "Elm Street", "Fifth Ave".
var streetWords = setOf("street", "st", "avenue", "ave", "road", "rd", "lane", "ln", "drive", "dr", "boulevard", "blvd",
	"way", "court", "ct", "place", "pl", "terrace", "crescent", "parkway", "pkwy", "highway", "hwy", "square", "circle",
	"close", "row", "alley")

// houseNumber: w is a house number: digits, with a letter or a range
// ("22", "14b", "10-12").
func houseNumber(w string) bool {
	digits := 0
	for i, r := range w {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '-' && i > 0 && i < len(w)-1:
		case r >= 'a' && r <= 'z' && i == len(w)-1 && digits > 0:
		default:
			return false
		}
	}
	return digits > 0 && digits <= 6
}

// withHouseNumber is the first token of the street address whose street
// name is tokens first..last: the house number right before it ("22 Elm
// Street" → the 22), else first. A street's name alone would send a car,
// a parcel, a meal to the wrong door.
func (f *filler) withHouseNumber(first, last int) int {
	if first > 0 && streetWords[f.toks[last].word] && f.free(first-1) && !endsClause(f.toks[first-1].raw) && houseNumber(f.toks[first-1].word) {
		return first - 1
	}
	return first
}

// arriveWords and leaveWords open where a person's arrival or departure
// sets a thing off: "when I get to the office", "once we leave work".
var (
	arriveWords = map[string]int{"get to": 2, "arrive at": 2, "arrive in": 2, "reach": 1, "am at": 2, "'m at": 2, "get home": 2, "arrive home": 2, "get back to": 3, "am home": 2, "'m home": 2, "get back home": 3}
	leaveWords  = map[string]int{"leave": 1, "leave from": 2, "head out of": 3, "get out of": 3}
	triggerOpen = setOf("when", "whenever", "once", "after", "as soon as")
)

// applyTriggerPlaces reads the place of a "when I get to …" clause ("when
// I get to the office", "once we leave the gym", "as soon as I get home")
// for the one place parameter still missing that such a clause sets off:
// one whose description speaks of arriving, leaving or triggering. An
// arrival never fills a parameter described for leaving only, nor a
// departure one described for arrival only: a reminder would go off at
// the wrong time.
func (f *filler) applyTriggerPlaces() {
	var target *property
	for _, p := range f.s.props {
		if f.missing(p) && isPlaceProp(p) && (strings.Contains(p.desc, "arriv") || strings.Contains(p.desc, "leav") || strings.Contains(p.desc, "trigger") || strings.Contains(p.desc, "depart")) {
			if target != nil {
				return
			}
			target = p
		}
	}
	if target == nil {
		return
	}
	for i := 0; i+3 < len(f.toks); i++ {
		w := f.toks[i].word
		k := i + 1
		if w == "as" && f.toks[k].word == "soon" && k+1 < len(f.toks) && f.toks[k+1].word == "as" {
			k += 2
		} else if !triggerOpen[w] {
			continue
		}
		if !f.free(i) || k >= len(f.toks) || !f.free(k) {
			continue
		}
		// The subject: "I", "we", or a contraction with the verb ("I'm at").
		subj := f.toks[k].word
		verbAt := k + 1
		switch subj {
		case "i", "we":
		case "i'm", "we're":
			verbAt = k // "'m at" below
		default:
			continue
		}
		phrase := func(n int) string {
			var ws []string
			for j := verbAt; j < verbAt+n && j < len(f.toks); j++ {
				ws = append(ws, f.toks[j].word)
			}
			return strings.Join(ws, " ")
		}
		arrive, n := false, 0
		for m := 3; m >= 1 && n == 0; m-- {
			v := phrase(m)
			if verbAt == k {
				v = strings.Replace(v, subj, "'m", 1)
				v = strings.Replace(v, "we're", "'m", 1)
			}
			if arriveWords[v] == m {
				arrive, n = true, m
			} else if leaveWords[v] == m {
				n = m
			}
		}
		if n == 0 {
			continue
		}
		if arrive && !strings.Contains(target.desc, "arriv") && strings.Contains(target.desc, "leav") ||
			!arrive && strings.Contains(target.desc, "arriv") && !strings.Contains(target.desc, "leav") && !strings.Contains(target.desc, "depart") {
			continue
		}
		end := verbAt + n - 1
		if strings.HasSuffix(phrase(n), "home") {
			// "when I get home": the place is home.
			if f.try(target, "home") {
				f.useTokens(rangeIdx(i, end)...)
			}
			return
		}
		first, last := end+1, end
		for j := first; j < len(f.toks) && j-first < 5 && f.free(j); j++ {
			w := f.toks[j].word
			afterDet := determiners[f.toks[j-1].word] || possessives[f.toks[j-1].word] // "the post office"
			if j > first && (prepositions[w] || shortPreps[w] || objectPronouns[w] || subjectPronouns[w] || !afterDet && (verbs[w] || promptVerbs[w] || f.tool[w])) {
				break // "when I reach Denver remind us …"
			}
			last = j
			if endsClause(f.toks[j].raw) {
				break
			}
		}
		if last < first || !determiners[f.toks[first].word] && !possessives[f.toks[first].word] && f.capRun(first) < 0 && last != first {
			continue
		}
		if f.try(target, f.spanValue(first, last)) {
			f.useTokens(rangeIdx(i, last)...)
		}
		return
	}
}

// roomWords are the rooms and zones of a home or building that a request
// writes before the thing in them ("the hallway lights").
var roomWords = setOf("kitchen", "bedroom", "bathroom", "hallway", "hall", "garage", "office", "den", "lounge",
	"study", "basement", "attic", "porch", "patio", "garden", "nursery", "pantry", "loft", "landing", "closet",
	"cellar", "conservatory", "playroom", "yard", "backyard", "deck", "driveway", "foyer", "entryway", "workshop",
	"shed", "lobby", "stairs", "staircase", "stairway", "upstairs", "downstairs", "balcony", "washroom", "kitchenette")

// roomNames name a parameter for a room or zone.
var roomNames = setOf("room", "rooms", "zone", "area", "space")

// isRoomProp: p names a room or zone of a home or building.
func isRoomProp(p *property) bool {
	return stringProp(p) && !isIDProp(p) && fitsName(p, roomNames)
}

// ownNoun: token i is a noun the tool uses for its own things, a word of
// its name or of what it says of itself (the lamp of a lights tool), not
// a verb.
func (f *filler) ownNoun(i int) bool {
	w := f.toks[i].word
	if w == "" || verbs[w] || commonWord(w) {
		return false
	}
	if f.tool[w] {
		return true
	}
	own := f.s.own
	for j := strings.Index(own, w); j >= 0; {
		end := j + len(w)
		if (j == 0 || !isWordByte(own[j-1])) && (end == len(own) || !isWordByte(own[end])) {
			return true
		}
		k := strings.Index(own[end:], w)
		if k < 0 {
			break
		}
		j = end + k
	}
	return false
}

// applyRoomNouns fills a room or zone parameter from a room written right
// before the tool's own noun: "turn off the hallway lights", "dim the den
// lamp", "the living room light". The room is a room word, a compound
// room, or a word the parameter's description lists as a value.
func (f *filler) applyRoomNouns() {
	for _, p := range f.s.props {
		if !f.missing(p) || !isRoomProp(p) {
			continue
		}
		for i := 1; i < len(f.toks) && f.missing(p); i++ {
			k := i - 1
			if !f.free(k) || endsClause(f.toks[k].raw) || capWord(f.toks[k].raw) && !f.sentenceStart(k) || !f.ownNoun(i) {
				continue
			}
			first := k
			switch w := f.toks[k].word; {
			case f.compoundAt(k-1) && f.free(k-1):
				first = k - 1
			case roomWords[w] || describesWord(p, w) && !commonWord(w) && f.contentWord(k):
			default:
				continue
			}
			if f.try(p, f.spanValue(first, k)) {
				f.useTokens(rangeIdx(first, k)...)
			}
		}
	}
}

// changeLeads put a change before its number: "up 2 degrees", "down
// three", "by 5".
var changeLeads = setOf("up", "down", "by")

// changeWords name or describe a parameter that takes a change, not a
// level: delta, step, "or the change when mode is adjust".
var changeWords = setOf("change", "delta", "step", "increment", "decrement", "offset", "adjust", "adjustment", "by")

// changeBy: the number at token i is written as a change.
func (f *filler) changeBy(i int) bool {
	return i > 0 && changeLeads[f.toks[i-1].word] && !endsClause(f.toks[i-1].raw)
}

// changeParam: p takes a change, by its name or description.
func changeParam(p *property) bool {
	return fitsName(p, changeWords) || describesAny(p, changeWords)
}
