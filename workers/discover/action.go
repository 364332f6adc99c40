package discover

import (
	"slices"
	"strings"
	"unicode"
)

// actionKind is the kind of effect a verb asks for or a tool has: the
// create / read / update / delete split that APIs are designed around (and
// that MCP's readOnlyHint and destructiveHint annotate). A request to
// delete a message is not served by the tool that posts one, nor a request
// to list the calendar's events by the tool that creates one, however many
// other words they share: the near misses an agent sends when the registry
// lacks the tool it wants, which word overlap alone reads as a confident
// match (and which would run a tool with an effect nobody asked for).
type actionKind uint8

const (
	actionRead actionKind = 1 << iota
	actionCreate
	actionUpdate
	actionDelete
	// actionAny is every kind: what a tool that manages things does.
	actionAny = actionRead | actionCreate | actionUpdate | actionDelete
)

// actionVerbs are the English verbs whose kind of effect is plain whatever
// their object. Written by hand: the list is short and closed, and no Go
// library classifies verbs by effect. Verbs whose effect depends on the
// object ("open" a file or an issue, "get" a report or a taxi, "run",
// "set", "make", "start", "save" a file or money) and
// transformations without an effect on anything stored ("convert",
// "translate", "count") are left out: a verb not listed never conflicts.
var actionVerbs = map[string]actionKind{
	// read: observe, change nothing.
	"list": actionRead, "show": actionRead, "display": actionRead,
	"fetch": actionRead, "retrieve": actionRead, "read": actionRead, "view": actionRead,
	"find": actionRead, "search": actionRead, "look": actionRead, "lookup": actionRead,
	"check": actionRead, "query": actionRead, "browse": actionRead, "inspect": actionRead,
	"locate": actionRead, "download": actionRead, "monitor": actionRead,
	// create: add something new, or send it.
	"create": actionCreate, "add": actionCreate, "post": actionCreate, "send": actionCreate,
	"publish": actionCreate, "submit": actionCreate, "upload": actionCreate, "write": actionCreate,
	"schedule": actionCreate, "book": actionCreate, "reserve": actionCreate,
	"order": actionCreate, "buy": actionCreate, "register": actionCreate, "invite": actionCreate,
	"insert": actionCreate, "compose": actionCreate, "share": actionCreate,
	// update: change something that exists.
	"update": actionUpdate, "edit": actionUpdate, "modify": actionUpdate, "change": actionUpdate,
	"rename": actionUpdate, "move": actionUpdate, "replace": actionUpdate, "overwrite": actionUpdate,
	"patch": actionUpdate, "reset": actionUpdate, "upgrade": actionUpdate, "merge": actionUpdate,
	"reschedule": actionUpdate, "restore": actionUpdate, "archive": actionUpdate, "unarchive": actionUpdate,
	// delete: remove or end something.
	"delete": actionDelete, "remove": actionDelete, "erase": actionDelete, "cancel": actionDelete,
	"close": actionDelete, "kill": actionDelete, "terminate": actionDelete, "purge": actionDelete,
	"wipe": actionDelete, "revoke": actionDelete, "uninstall": actionDelete, "unsubscribe": actionDelete,
	"destroy": actionDelete, "discard": actionDelete,
	// all four: "Manage your reminders", "manage webhooks".
	"manage": actionAny, "administer": actionAny,
}

// actionNames name the kinds, in the order of their bits.
var actionNames = [...]string{"read", "create", "update", "delete"}

// Names are the kinds k holds, by name ("read", "create", "update",
// "delete"), nil for none.
func (k actionKind) Names() []string {
	var out []string
	for i, n := range actionNames {
		if k&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// verbOf is the kind of an inflected verb ("creates", "listed",
// "deleting", "stopped"), 0 when it is none of actionVerbs.
func verbOf(w string) actionKind {
	if k := actionVerbs[w]; k != 0 {
		return k
	}
	for _, suffix := range [...]string{"s", "es", "d", "ed", "ing"} {
		stem, ok := strings.CutSuffix(w, suffix)
		if !ok || len(stem) < 3 {
			continue
		}
		if k := actionVerbs[stem]; k != 0 {
			return k
		}
		if suffix == "ing" || suffix == "ed" {
			if k := actionVerbs[stem+"e"]; k != 0 { // "creating", "changed"
				return k
			}
			if n := len(stem); stem[n-1] == stem[n-2] { // "stopped", "dropping"
				if k := actionVerbs[stem[:n-1]]; k != 0 {
					return k
				}
			}
		}
	}
	return 0
}

// verbLead are the words after which a listed verb is a verb, not a noun
// ("post" in "please post …", "can you list …", "I want to delete …", but
// not in "my slack post" or "the shopping list").
var verbLead = map[string]bool{
	"please": true, "pls": true, "kindly": true, "to": true, "and": true, "then": true,
	"also": true, "just": true, "now": true, "you": true, "i": true, "we": true,
	"me": true, "us": true, "lets": true, "let's": true, "can": true, "could": true,
	"would": true, "will": true, "should": true, "must": true, "help": true, "ahead": true,
	"first": true, "finally": true, "quickly": true, "or": true,
}

// requestAction are the kinds of effect a request asks for: those of its
// listed verbs in a verb's place, as written (an imperative or an
// infinitive: "just posted" tells what happened, not what to do; a task of
// several steps asks for several); 0 when it names none. A question names
// none by being one: "how do I …" and "what is the best way to …" ask for
// help that a tool of any kind may give. words are the request's plain
// words (plainWords: stop words and possessives kept, as a tool's
// description is read).
func requestAction(words []string) (sure actionKind, unsure []string) {
	for i, w := range words {
		if i > 0 && !verbLead[words[i-1]] {
			continue
		}
		k := actionVerbs[w]
		if k == 0 {
			continue
		}
		if nounHeads[w] && !(i > 0 && forcesVerb[words[i-1]]) && !(i+1 < len(words) && startsObject(words[i+1])) {
			unsure = append(unsure, w) // "order status for 12345", "edit line 5"
			continue
		}
		sure |= k
	}
	return sure, unsure
}

// asksWhatIs says whether a request is a question about what is, was or
// will be — a thing's state, its parts, a count, a time, a place: "what
// meetings do I have tomorrow", "who is online in slack", "how many files
// are in /tmp". Such a question asks to read (askedOf says of which
// tools). A question for a way or for advice ("what is a good way to get
// fluent in Go", "how do I …", "what should I cook") is not one: it asks
// for help a tool of any kind may give; nor is one that names an effect
// itself.
func asksWhatIs(words []string) bool {
	if len(words) == 0 {
		return false
	}
	first := words[0]
	switch {
	case whatIsOpeners[first]:
	case first == "how" && len(words) > 1 && howMuch[words[1]]:
	default:
		return false
	}
	for _, w := range words[1:] {
		// A listed verb anywhere makes it a question about that effect
		// ("which settings matter when creating a poll").
		if askingAdvice[w] || verbOf(w) != 0 {
			return false
		}
	}
	return true
}

// whatIsOpeners open a question about what is: the interrogative pronouns
// and adverbs but "how" and "why" (a method, a reason). Not the
// auxiliaries of a yes-no question: "have the floors cleaned", "do a
// backup" are orders, and "is it possible to …" asks what can be done.
var whatIsOpeners = map[string]bool{
	"what": true, "what's": true, "whats": true, "which": true, "who": true,
	"who's": true, "whose": true, "whom": true, "when": true, "when's": true,
	"where": true, "where's": true,
}

// howMuch are the words after "how" that ask for an amount: "how many",
// "how long", "how big".
var howMuch = map[string]bool{
	"many": true, "much": true, "long": true, "big": true, "large": true,
	"old": true, "far": true, "often": true, "fast": true, "full": true,
}

// askingAdvice are the words of a question that asks for a way, a choice
// or advice rather than for what is.
var askingAdvice = map[string]bool{
	"way": true, "ways": true, "should": true, "shall": true, "recommend": true,
	"suggest": true, "best": true, "tips": true, "ideas": true, "advice": true,
	"how": true, "could": true, "can": true, "would": true,
}

// unsureVerb is a nounHeads word that may be a verb or the head of a noun
// phrase ("edit line 5 of the file"; "order status for 12345"), with its
// analysed term.
type unsureVerb struct {
	kind actionKind
	term string
}

// askedOf are the kinds of effect a request asks of one tool: the sure
// ones, and those of its unsure verbs but where the tool speaks of the
// word as a thing (mentions it without naming its effect). A look-up tool
// whose text speaks of orders or share prices is asked about the thing
// ("order status", "share price of ACME"); a tool that does not mention
// the word is asked to do it ("edit line 5" of a tool that shows lines),
// and so is one that names the effect ("update case 68" of a tool that
// updates cases).
//
// A question about what is (asksWhatIs) asks to read of a tool whose
// description opens with its effect ("Post a message to a Slack
// channel"), unless it names the tool: "who is online in slack" is not for
// the tool that posts, while a question about what a tool does, or of a
// tool that opens otherwise ("A study app that lets learners create
// flashcards and quiz themselves", "Solve the riddles … Add your own
// rules"), may want an effect its text does not list.
func (q *parsedQuery) askedOf(en *entry) actionKind {
	kinds := q.asked
	if q.whatIs && en.leadAction != 0 && !q.names(en) {
		kinds |= actionRead
	}
	for _, u := range q.unsure {
		if en.actions&u.kind != 0 || !slices.Contains(en.wordTerms, u.term) {
			kinds |= u.kind
		}
	}
	return kinds
}

// names says whether the request's words name the tool: one of its name
// forms as a run of them.
func (q *parsedQuery) names(en *entry) bool {
	for _, n := range en.names {
		if containsRun(q.spaced, n) {
			return true
		}
	}
	return false
}

// leadAction is the kind of the verb a tool's description opens with
// ("Post a message …", "Create an event …"), 0 when it opens otherwise:
// its first word as plainWords reads it, without splitting the rest (every
// tool is read at indexing).
func leadAction(description string) actionKind {
	for rest := description; rest != ""; {
		rest = strings.TrimLeftFunc(rest, notPlain)
		w := rest
		if i := strings.IndexFunc(rest, notPlain); i >= 0 {
			w, rest = rest[:i], rest[i:]
		} else {
			rest = ""
		}
		if w = strings.Trim(w, "-"); w != "" { // "-- Post …": a dash alone is no word
			return verbOf(strings.ToLower(w))
		}
	}
	return 0
}

// notPlain: r separates plainWords' words (a letter, an apostrophe or a
// hyphen does not).
func notPlain(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '-' }

// nounHeads are listed verbs of an effect other than reading that as often
// head a noun phrase: "order status", "share price", "post history", "update
// log", "schedule for Monday", "merge request", "upload speed". Read as
// verbs there, they would make a look-up conflict with the look-up tool
// and lose it, which is worse than missing a near miss. So in a request
// such a word is surely a verb only where nothing else can be: after a
// word that leaves no other reading (forcesVerb: "please", "to", "can
// you"), or before the start of its object (startsObject: "order a pizza",
// "share the file", "post my notes"). Elsewhere it is unsure, and read per
// tool (askedOf). A tool's text keeps the plain reading: a kind too many
// there makes a conflict rarer, never more likely.
var nounHeads = map[string]bool{
	"order": true, "share": true, "post": true, "book": true, "schedule": true,
	"update": true, "change": true, "patch": true, "merge": true, "upgrade": true,
	"invite": true, "register": true, "upload": true, "edit": true,
}

// forcesVerb are the verbLead words after which a word can only be a verb
// ("please post", "to order", "can you book", "I want to update"), unlike
// "and", "then" or "me" ("the order and post history", "show me post
// titles").
var forcesVerb = map[string]bool{
	"please": true, "pls": true, "kindly": true, "to": true, "you": true, "i": true,
	"we": true, "lets": true, "let's": true, "can": true, "could": true, "would": true,
	"will": true, "should": true, "must": true, "help": true, "ahead": true,
}

// objectStarters are the words that open a verb's object: determiners,
// possessives, object pronouns and quantifiers.
var objectStarters = map[string]bool{
	"a": true, "an": true, "the": true, "my": true, "your": true, "our": true,
	"their": true, "his": true, "her": true, "its": true, "this": true, "that": true,
	"these": true, "those": true, "some": true, "all": true, "every": true, "each": true,
	"any": true, "another": true, "me": true, "it": true, "them": true, "him": true,
	"us": true, "new": true,
}

// startsObject says whether w opens a verb's object: an objectStarters
// word or a possessive ("jane's").
func startsObject(w string) bool {
	return objectStarters[w] || strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "’s")
}

// verbsInPlace are the kinds kindOf gives the words in a verb's place: the
// first word, or after a verbLead word.
func verbsInPlace(words []string, kindOf func(string) actionKind) actionKind {
	var kinds actionKind
	for i, w := range words {
		if i == 0 || verbLead[words[i-1]] {
			kinds |= kindOf(w)
		}
	}
	return kinds
}

// toolActions are the kinds of effect a tool names: every listed verb of
// its name and id ("create_issue", "list_directory"), its keywords' first
// words ("post message"), and of its description's sentences and clauses
// the verbs in a verb's place ("Search songs and create playlists": read
// and create), not a noun inside a phrase ("access/modify times"). names
// and keywords are the exact forms the entry keeps for mentions and
// phrase_match (words joined by spaces): read again, not analysed again.
func toolActions(names, keywords []string, description string) actionKind {
	var kinds actionKind
	for _, n := range names {
		for _, w := range strings.Fields(n) {
			kinds |= verbOf(w)
		}
	}
	for _, kw := range keywords {
		first, _, _ := strings.Cut(kw, " ")
		kinds |= verbOf(first)
	}
	for _, clause := range strings.FieldsFunc(description, isClauseBreak) {
		kinds |= verbsInPlace(plainWords(clause), verbOf)
	}
	return kinds
}

// plainWords are text's words, lower-cased: a description's verbs are plain
// words, and this is several times cheaper than analysing the text again
// (names and ids go through the analyser, which splits "createInvoice").
func plainWords(text string) []string {
	// A hyphen stays inside a word: "add-on" and "check-in" are nouns.
	ws := strings.FieldsFunc(text, notPlain)
	out := ws[:0]
	for _, w := range ws {
		if w = strings.Trim(w, "-"); w != "" { // "--check", a dash between words
			out = append(out, strings.ToLower(w))
		}
	}
	return out
}

// isClauseBreak separates a description's sentences and clauses. Not a
// comma: it separates the nouns of a list as often ("price, change and
// volume").
func isClauseBreak(r rune) bool {
	switch r {
	case '.', ';', ':', '!', '?', '(', ')', '\n', '—', '–':
		return true
	}
	return false
}

// conflicts says whether a request asking for the effects want cannot be
// served by a tool with the effects have: both known, and none in common.
func (want actionKind) conflicts(have actionKind) bool {
	return want != 0 && have != 0 && want&have == 0
}

// actionRivals is how far down the ranking preferAskedAction looks for a
// tool that names the effect asked for: the few leading tools, whose
// evidence is comparable.
const actionRivals = 3

// preferAskedAction moves to the top the best of the first actionRivals
// tools that names the effect the request asks for and is a sibling of the
// first (of the same server), when the first conflicts with it: "remove
// the standup event" goes to the calendar's tool that deletes events
// before its tool that creates them, whichever shares more words with the
// request. Siblings act on the same objects and differ by their effect; a
// tool of another server (or of none) naming the effect is another thing,
// and was preferred wrongly as often as rightly (plugins without servers:
// a request to look something up, and a plugin that also orders it). A
// rival that names no effect is not preferred either.
// Confidence is computed after, so a conflicting first tool left where it
// is reads as doubtful.
func preferAskedAction(order []*pooled) {
	if len(order) < 2 || !order[0].actionConflict {
		return
	}
	want := order[0].asked
	server := order[0].en.cand.Server
	for j := 1; j < min(actionRivals, len(order)); j++ {
		if server != "" && order[j].en.cand.Server == server && order[j].en.actions&want != 0 {
			p := order[j]
			copy(order[1:j+1], order[:j])
			order[0] = p
			return
		}
	}
}
