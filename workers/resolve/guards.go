package resolve

import (
	"strings"
	"unicode"
)

// Guards against a silently wrong argument: a value a guessing rule would
// place that cannot be what the person meant.

// subjectPronouns open what a message says ("text Ann I'm late", "tell
// Bo we're here"): a name run ends before one, and none is a name.
var subjectPronouns = setOf("i", "i'm", "im", "i've", "i'll", "i'd", "we", "we're", "we'll", "we've", "we'd",
	"you", "you're", "you'll", "he's", "she's", "it's", "they", "they're", "they'll")

// pronounValues are the pronouns that are never a value of a text
// parameter on their own: a camera, a contact, a door called "I" or "it"
// is a pronoun misread as a name.
var pronounValues = setOf("i", "i'm", "me", "my", "myself", "you", "your", "it", "its", "we", "us", "our", "he", "him",
	"his", "she", "her", "they", "them", "their", "this", "that", "these", "those", "someone", "somebody", "something")

// pronounOnly: v is one pronoun and nothing else.
func pronounOnly(v string) bool {
	v = strings.ToLower(strings.Trim(strings.TrimSpace(v), `"'“”‘’.,!?;:`))
	return pronounValues[strings.ReplaceAll(v, "’", "'")]
}

// noPronounFor: p is a text parameter a pronoun alone never fills (any
// but a language code, where "it" is Italian).
func noPronounFor(p *property) bool {
	return stringProp(p) && !isLanguageProp(p)
}

// compounds are the nouns of two words that name one thing, whose first
// word alone names nothing of the kind: "the living room lamp" is in the
// living room, not in "living".
var compounds = setOf("living room", "dining room", "family room", "guest room", "laundry room", "sitting room",
	"drawing room", "utility room", "games room", "game room", "play room", "rec room", "mud room", "powder room",
	"front door", "back door", "side door", "garage door", "patio door", "front yard", "back yard", "side yard",
	"front garden", "back garden", "front porch", "back porch", "side gate", "front gate", "master bedroom",
	"spare room", "spare bedroom", "guest bedroom", "home office")

// compoundAt: tokens i and i+1 are one compound noun.
func (f *filler) compoundAt(i int) bool {
	return i >= 0 && i+1 < len(f.toks) && !endsClause(f.toks[i].raw) && compounds[f.toks[i].word+" "+f.toks[i+1].word]
}

// describesWord: p's description names w as a value of its own ("Which
// door, e.g. front, back"), so the word alone is what p takes.
func describesWord(p *property, w string) bool { return p.descWords[w] }

// describesAny: p's description writes one of words.
func describesAny(p *property, words map[string]bool) bool {
	// The smaller set is walked: the rules ask this of every property.
	walk, in := p.descWords, words
	if len(words) < len(walk) {
		walk, in = words, p.descWords
	}
	for w := range walk {
		if in[w] {
			return true
		}
	}
	return false
}

// descriptionWords are the words of a lower-case description, split at
// spaces and punctuation (made once per manifest: property.descWords).
func descriptionWords(desc string) map[string]bool {
	words := map[string]bool{}
	for _, d := range strings.FieldsFunc(desc, func(r rune) bool {
		return r == ',' || r == ' ' || r == '(' || r == ')' || r == ';' || r == ':' || r == '.' || r == '\'' || r == '"'
	}) {
		words[d] = true
	}
	return words
}

// clauseValue: v reads as a clause, a request of its own, not a short
// value: its first word is a verb ("open the deadbolt on the side").
func clauseValue(v string) bool {
	ws := strings.Fields(strings.ToLower(v))
	return len(ws) > 1 && verbs[strings.Trim(ws[0], `"'“”‘’.,!?;:`)]
}

// shortValueParam: p takes a short name, not what a message says: no
// content or free-text parameter, and its description's examples, if it
// gives any, are a word or two each ("Which door, e.g. front, back").
func (f *filler) shortValueParam(p *property, free *property) bool {
	if p == free || fitsName(p, contentNames) || fitsName(p, titleNames) {
		return false
	}
	for _, w := range []string{"message", "text", "content", "body", "note", "description", "instruction", "query", "prompt", "sentence", "question"} {
		if strings.Contains(p.desc, w) {
			return false
		}
	}
	return true
}

// nameOfOther: the name at tokens [a, b] is one another parameter's
// description lists as a value ("uber, lyft or taxi"), or one written in
// the tool's own description as what it works with ("a ride-hailing
// service (Uber, Lyft …)"): the service or the kind, not a place or a
// person for p.
func (f *filler) nameOfOther(p *property, a, b int) bool {
	v := strings.ToLower(f.spanValue(a, b))
	if v == "" {
		return false
	}
	for _, q := range f.s.props {
		if q != p && describesWord(q, v) {
			return true
		}
	}
	return false
}

// kindAfterArticle: the name at token a follows "a" or "an" ("get me an
// Uber", "find a Starbucks"): one of a kind, not a place or a person.
func (f *filler) kindAfterArticle(a int) bool {
	return a > 0 && (f.toks[a-1].word == "a" || f.toks[a-1].word == "an")
}

// tripEnds name the parameters for where a trip or a delivery goes or
// starts, places though their names do not say so.
var tripEnds = setOf("dropoff", "pickup", "origin", "destination", "address")

// placeLike: p holds a place, by name.
func placeLike(p *property) bool {
	return stringProp(p) && (isPlaceProp(p) || fitsName(p, tripEnds))
}

// notAPlace: the name at tokens [a, b] is a service or a kind, not a
// place for p: a name another parameter lists as its value ("uber, lyft
// or taxi"), the one-word name of another tool offered ("WhatsApp"), or a
// name after "a"/"an" ("get me an Uber"); or it is where a trip starts
// ("from Central Station"), never p's when p is where it goes.
func (f *filler) notAPlace(p *property, a, b int) bool {
	if !placeLike(p) {
		return false
	}
	return f.nameOfOther(p, a, b) || a == b && f.others[f.toks[a].word] != "" || f.kindAfterArticle(a) || f.fromPlace(a) && goesTo(p)
}

// fromPlace: the name at token a follows "from" (past a determiner):
// where something starts or comes from.
func (f *filler) fromPlace(a int) bool {
	k := a - 1
	if k >= 0 && determiners[f.toks[k].word] {
		k--
	}
	return k >= 0 && f.toks[k].word == "from"
}

// goesTo: p is where something goes (a drop-off, a destination, a
// delivery address), which a place after "from" never is.
func goesTo(p *property) bool {
	if fitsName(p, setOf("dropoff", "destination", "to", "target")) {
		return true
	}
	for _, w := range []string{"destination", "delivery", "deliver", "drop-off", "dropoff", "where to go"} {
		if strings.Contains(p.desc, w) {
			return true
		}
	}
	return false
}

// sellerNames name parameters for the business a thing comes from.
var sellerNames = setOf("restaurant", "store", "shop", "vendor", "merchant", "seller", "supplier", "retailer", "cafe", "bakery")

// applySellers reads a name after "from" or "at" ("order pad thai from
// Thai Garden", "transactions at Blue Bottle") for the one missing
// parameter named for the business a thing comes from (restaurant, store
// …) or described by its name ("Merchant name"), before the places rule
// would take it for an address.
func (f *filler) applySellers() {
	target := f.soleMissingOf(func(p *property) bool { return fitsName(p, sellerNames) || sellerNames[p.noun] }, false)
	if target == nil {
		return
	}
	for i := 0; i+1 < len(f.toks); i++ {
		if !f.free(i) || f.toks[i].word != "from" && f.toks[i].word != "at" || endsClause(f.toks[i].raw) {
			continue
		}
		k := i + 1
		if f.free(k) && determiners[f.toks[k].word] {
			k++
		}
		last := f.capRun(k)
		if last < 0 {
			continue
		}
		if f.try(target, f.spanValue(k, last)) {
			f.useTokens(rangeIdx(i, last)...)
		}
		return
	}
}

// recipientNames name the parameters for who gets a message.
var recipientNames = setOf("to", "recipient", "recipients", "phone", "contact", "number")

// recipientMissing: a parameter other than p for who gets a message is
// still missing, so the word after a message verb ("text 555-0199") is
// who, not what.
func (f *filler) recipientMissing(p *property) bool {
	for _, q := range f.s.props {
		if q != p && f.missing(q) && stringProp(q) && fitsName(q, recipientNames) {
			return true
		}
	}
	return false
}

// messageVerbs send what follows their recipient: "text Ann I'm late".
var messageVerbs = setOf("text", "message", "tell", "sms", "msg", "ping", "whatsapp")

// messageOpens: token i, a subject pronoun, opens what a message says,
// right after the name its verb sends to ("text Ann I'm late", "tell Bo
// we're here"): the request's verb is a message verb and the words
// between it and i are one name.
func (f *filler) messageOpens(i int) bool {
	v := f.verbIndex()
	if !subjectPronouns[f.toks[i].word] || v+1 >= i || v >= len(f.toks) || !messageVerbs[f.toks[v].word] {
		return false
	}
	return f.capRun(v+1) == i-1
}

// negations deny a verb: a run of words with one is a clause ("don't
// want to cook"), never a thing asked for.
var negations = setOf("not", "never", "don't", "dont", "doesn't", "didn't", "won't", "can't", "cannot", "isn't",
	"aren't", "wasn't", "shouldn't", "wouldn't", "couldn't")

// clauseList: tokens a..b, read as the list items, are words of a
// clause, not the things the request asks for: the list follows a
// subject pronoun ("I'm tired and hungry"), its clause is denied ("we
// don't want onions or peppers"), or an item holds a pronoun or a
// negation, or a verb before its last word ("starving and don't want to
// cook", "hungry, get me noodles"), or it follows "no" ("no onions or
// peppers"). A list is the object of a verb, a run of
// noun phrases.
func (f *filler) clauseList(a, b int, items []any) bool {
	if a > 0 && (subjectPronouns[f.toks[a-1].word] || f.toks[a-1].word == "no") {
		return true
	}
	for k := a - 1; k >= 0 && !endsClause(f.toks[k].raw); k-- {
		if negations[f.toks[k].word] {
			return true
		}
	}
	for k := a; k <= b && k < len(f.toks); k++ {
		w := f.toks[k].word
		if negations[w] || subjectPronouns[w] {
			return true
		}
	}
	for _, it := range items {
		if v, ok := it.(string); ok {
			ws := strings.Fields(strings.ToLower(v))
			for _, w := range ws[:max(len(ws)-1, 0)] {
				if verbs[strings.Trim(w, `"'“”‘’.,!?;:`)] {
					return true
				}
			}
		}
	}
	return false
}

// ownerOf is the parameter a name written with p's noun belongs to when
// it is not p's own: "the Radiolab episode", "an episode of The Daily"
// name the show, not the episode, for a tool with a show (a "Podcast
// name") and an episode ("Episode title or 'latest'"). It is the one
// other string parameter still missing whose description asks for a name
// while p's does not, and whose kind contains p's thing: the tool writes
// its kind before p's noun ("Play a podcast episode"), or p's
// description makes p's thing its part ("Episode of the show"). A name
// p's description lists as its own value ("e.g. French, Indian") stays
// p's.
func (f *filler) ownerOf(p *property) *property {
	if describesWord(p, "name") {
		return nil
	}
	var owner *property
	for _, o := range f.s.props {
		if o == p || !f.missing(o) || !stringProp(o) || !describesWord(o, "name") || !f.containerOf(o, p) {
			continue
		}
		if owner != nil {
			return nil
		}
		owner = o
	}
	return owner
}

// containerOf: o's kind holds p's thing (see ownerOf).
func (f *filler) containerOf(o, p *property) bool {
	hs := heads(p)
	own := strings.FieldsFunc(f.s.own, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
	for _, k := range kindWords(o) {
		if strings.Contains(p.desc, " of the "+k) || strings.Contains(p.desc, " of a "+k) || strings.Contains(p.desc, k+"'s ") {
			return true
		}
		for i := 0; i+1 < len(own); i++ {
			if own[i] == k {
				for _, h := range hs {
					if h != k && isHead(own[i+1], h) {
						return true
					}
				}
			}
		}
	}
	return false
}

// kindWords are the words that say what o is: its name's ("show") and
// its description's nouns but "name" ("Podcast name" → podcast).
func kindWords(o *property) []string {
	var ks []string
	for _, w := range o.words {
		if !nameSuffixes[w] && !idSuffixes[w] && len(w) > 2 {
			ks = append(ks, w)
		}
	}
	ds := strings.FieldsFunc(o.desc, func(r rune) bool { return !unicode.IsLetter(r) })
	for i, w := range ds {
		if i >= 5 {
			break
		}
		if w != "name" && len(w) > 2 && !fillers[w] && !determiners[w] && !commonWord(w) {
			ks = append(ks, w)
		}
	}
	return ks
}

// ownerName reads a name written with p's noun at token h that belongs
// to the parameter ownerOf gives ("the Radiolab episode", "the next
// episode of The Daily"), fills that one, and fills p with the word
// before (the noun or the name) when p's description lists it as a
// value ("latest", "next").
func (f *filler) ownerName(p *property, h int) bool {
	first, last, word := -1, -1, -1
	switch {
	case h > 0 && f.free(h-1) && !endsClause(f.toks[h-1].raw) && capWord(f.toks[h-1].raw):
		if first = f.capRunBack(h - 1); first < 0 {
			return false
		}
		last, word = h-1, first-1
	case f.free(h+1) && f.toks[h+1].word == "of" && !endsClause(f.toks[h].raw):
		if last = f.capRun(h + 2); last < 0 {
			return false
		}
		first, word = h+2, h-1
	default:
		return false
	}
	if describesWord(p, f.toks[first].word) {
		return false
	}
	o := f.ownerOf(p)
	if o == nil || !f.try(o, f.spanValue(first, last)) {
		return false
	}
	f.useTokens(rangeIdx(min(first, h), max(last, h))...)
	if f.free(word) && describesWord(p, f.toks[word].word) && f.try(p, f.toks[word].word) {
		f.useTokens(word)
	}
	return true
}

// productWords are makers and products whose name before a thing's noun
// says what kind of thing it is, not which one: "a Google spreadsheet",
// "the Excel sheet", "my Dropbox folder" name no spreadsheet, sheet or
// folder.
var productWords = setOf("google", "microsoft", "ms", "excel", "apple", "icloud", "dropbox", "onedrive", "sharepoint",
	"notion", "airtable", "slack", "outlook", "gmail", "office", "github", "gitlab", "jira", "trello", "asana",
	"figma", "salesforce", "hubspot", "aws", "azure", "gcp", "bigquery", "snowflake", "postgres", "mysql", "s3")

// productOnly: the words of tokens a through b are all product words.
func (f *filler) productOnly(a, b int) bool {
	if a < 0 || a > b {
		return false
	}
	for k := a; k <= b; k++ {
		if !productWords[f.toks[k].word] {
			return false
		}
	}
	return true
}

// phraseOpeners start what follows a noun phrase: "a new table so the team
// can edit it", "a new sheet for Ann".
var phraseOpeners = setOf("so", "that", "for", "with", "from", "and", "in", "on", "which", "where",
	"into", "please", "then", "if", "when", "by", "or", "but")

// unnamedThing: the request asks for a new, unnamed one of what p names
// ("load the file into the warehouse as a new table", "into a new Google
// spreadsheet"): p's noun after "a", "an" or "new" (product words
// between), ending its clause or before a word that opens another phrase.
// No other word of the request is then its name. An inner intent's
// result is a value, not the request's words: its "a text" asks for none.
func (f *filler) unnamedThing(p *property) bool {
	if !stringProp(p) || len(f.toks) == 0 {
		return false
	}
	hs := heads(p)
	for i := 1; i < len(f.toks); i++ {
		if !f.matchesHead(i, hs) || f.inNested(f.toks[i]) {
			continue
		}
		k := i - 1
		for k > 0 && productWords[f.toks[k].word] {
			k--
		}
		if w := f.toks[k].word; w != "a" && w != "an" && w != "new" || f.quotedAt(f.toks[i].end) >= 0 {
			continue // `a label "Type here"` names it
		}
		if i+1 == len(f.toks) || endsClause(f.toks[i].raw) || phraseOpeners[f.toks[i+1].word] {
			return true
		}
	}
	return false
}

// spanOpeners open a span of time ("the past 30 days", "the next week"); on
// their own they are no value of a text parameter.
var spanOpeners = setOf("past", "last", "next", "previous", "coming", "recent", "prior", "following", "preceding")

// timeWordsOnly: v is one or two such words and nothing else ("past",
// "the last").
func timeWordsOnly(v string) bool {
	ws := strings.Fields(strings.ToLower(v))
	if len(ws) == 0 || len(ws) > 2 {
		return false
	}
	for _, w := range ws {
		w = strings.Trim(w, `"'“”‘’.,!?;:`)
		if !spanOpeners[w] && w != "the" {
			return false
		}
	}
	return true
}
