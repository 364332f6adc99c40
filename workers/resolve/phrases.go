package resolve

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file reads values the way requests are written in prose: a value
// next to the noun its parameter is named for ("the Sales team", "the game
// 'Tetris'", "the player named Cristiano Ronaldo"), identifiers after "ID",
// places after "in" and "at", languages, and names left over.

// Words that end a parameter name without being what it is about: the
// parameter for "the cardio workout" is workout_type, for "the player
// named X" player_name.
var (
	idSuffixes   = setOf("id", "ids", "identifier", "uuid")
	nameSuffixes = setOf("type", "name", "title", "code", "number", "num", "kind", "value")
	// Suffixes that are nouns in their own right, so both words cue:
	// difficulty_level by "difficulty" or "level".
	softSuffixes = setOf("level", "category", "mode", "method", "format", "status", "style", "size", "group")
)

// determiners and prepositions that may come before a value's words.
var determiners = setOf("the", "a", "an", "this", "that", "these", "those", "my", "our", "your", "their", "its", "his", "her", "some", "any")

// vague words stand in for a value the request does not state ("a
// specific country"): skipped in front of a value, never one themselves.
var vague = setOf("specific", "specified", "given", "certain", "particular", "chosen", "selected", "desired", "provided", "following", "same", "current", "new")

// heads are the name words a property's value sits next to in prose.
// headSynonyms are the other nouns a request names a parameter's thing
// by, the parameter's own word first: "the weekly signups KPI" names the
// metric.
var headSynonyms = map[string][]string{"metric": {"metric", "kpi"}}

func heads(p *property) []string {
	w := p.words
	switch n := len(w); {
	case n == 0:
		return nil
	case n == 1:
		if idSuffixes[w[0]] || nameSuffixes[w[0]] {
			return nil
		}
		if syn, ok := headSynonyms[w[0]]; ok {
			return syn
		}
		return w
	default:
		last := w[n-1]
		switch {
		case idSuffixes[last] || nameSuffixes[last]:
			return []string{w[n-2]}
		case softSuffixes[last]:
			return []string{w[n-2], last}
		}
		return []string{last}
	}
}

// isNameWord: word is one of p's name words, or the singular of a
// plural one ("label" of labels).
func (f *filler) isNameWord(p *property, word string) bool {
	for _, w := range p.words {
		if isHead(word, w) || len(word) > 2 && isHead(w, word) {
			return true
		}
	}
	return false
}

// isHead reports whether token word names head h, singular or plural.
func isHead(word, h string) bool {
	if rest, ok := strings.CutPrefix(word, h); ok && (rest == "" || rest == "s" || rest == "es") {
		return true
	}
	// Compared in parts, not concatenated: rules ask this of every word.
	stem, ok := strings.CutSuffix(h, "y")
	return ok && len(word) == len(stem)+3 && strings.HasPrefix(word, stem) && strings.HasSuffix(word, "ies")
}

// stringProp: a property that takes free text (no enum, not a number).
func stringProp(p *property) bool {
	return (p.typ == "string" || p.typ == "") && len(p.enum) == 0
}

// isIDProp: named like an identifier (post_id, id, userIdentifier).
func isIDProp(p *property) bool {
	return len(p.words) > 0 && idSuffixes[p.words[len(p.words)-1]]
}

// free is an unused token that can be a value word.
func (f *filler) free(i int) bool {
	return i >= 0 && i < len(f.toks) && !f.toks[i].used && f.toks[i].word != ""
}

// freeText: token i may be part of a message's text: free, or a date or
// time no parameter took ("tell #eng that lunch is at 12:30").
func (f *filler) freeText(i int) bool {
	return f.free(i) || i >= 0 && i < len(f.toks) && f.toks[i].strayDate
}

// sentenceStart reports whether token i begins a sentence, where a
// capital letter says nothing.
func (f *filler) sentenceStart(i int) bool {
	if i == 0 {
		return f.toks[0].start == 0 || strings.TrimSpace(f.text[:f.toks[0].start]) == ""
	}
	prev := f.toks[i-1].raw
	return strings.HasSuffix(prev, ".") && !isAbbrev(prev) || strings.HasSuffix(prev, "!") || strings.HasSuffix(prev, "?") || strings.HasSuffix(prev, ":")
}

// isAbbrev: "Inc." and "St." end a name, not a sentence.
func isAbbrev(raw string) bool {
	switch strings.ToLower(strings.TrimRight(raw, ".,")) {
	case "inc", "ltd", "co", "corp", "st", "dr", "mr", "mrs", "ms", "jr", "sr", "llc", "u.s", "no":
		return true
	}
	return false
}

// capWord: a token that can be part of a name: capitalised, or a number
// or code inside one ("Boeing 777", "BMW 3 Series").
func capWord(raw string) bool {
	s := strings.TrimLeft(raw, `"'“‘(`)
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

func innerWord(raw string) bool {
	s := trimPunct(raw)
	if s == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsDigit(r) || capWord(raw)
}

// endsClause: a token after which a name cannot go on.
func endsClause(raw string) bool {
	if strings.HasSuffix(raw, ".") {
		return !isAbbrev(raw)
	}
	return strings.ContainsAny(raw[len(raw)-1:], ",;:!?)")
}

// capRun reads the name that starts at token i: capitalised words, and
// numbers or codes after the first ("Boeing 777"). It returns the index
// of the last token, or -1 when no name starts at i.
func (f *filler) capRun(i int) int {
	if !f.free(i) || !capWord(f.toks[i].raw) || discourse[f.toks[i].word] || subjectPronouns[f.toks[i].word] || f.sentenceStart(i) && !f.nameAfterStart(i) {
		return -1
	}
	last := i
	// A name ends where what a message says starts: "text Mom I'm late".
	for !endsClause(f.toks[last].raw) && f.free(last+1) && innerWord(f.toks[last+1].raw) && !connectors[f.toks[last+1].word] && !subjectPronouns[f.toks[last+1].word] {
		last++
	}
	return last
}

// nameAfterStart: a capitalised word opening a sentence is a name only
// when the next word is capitalised too and the word is no verb we know.
func (f *filler) nameAfterStart(i int) bool {
	return !fillers[f.toks[i].word] && !verbs[f.toks[i].word] && f.free(i+1) && capWord(f.toks[i+1].raw) && !f.tool[f.toks[i].word]
}

// capRunBack reads the name that ends at token j, returning its first
// token or -1.
func (f *filler) capRunBack(j int) int {
	if !f.free(j) || !innerWord(f.toks[j].raw) {
		return -1
	}
	first := j
	for first-1 >= 0 && f.free(first-1) && innerWord(f.toks[first-1].raw) && !endsClause(f.toks[first-1].raw) && !f.sentenceStart(first) {
		first--
	}
	for first <= j && (!capWord(f.toks[first].raw) || f.sentenceStart(first) && (verbs[f.toks[first].word] || fillers[f.toks[first].word])) {
		first++
	}
	if first > j || f.sentenceStart(first) && first == j {
		return -1
	}
	return first
}

// spanValue is the text of tokens [a, b], trimmed of what prose puts
// around a value, and of a possessive when something owned follows it
// ("John Smith's laptop" → John Smith). With nothing owned after it, at
// the end of a clause or before a word of the frame ("for", "and"), the
// possessive names a place by its owner ("order from Luigi's", "a table
// at Nonna's for four") and stays: the restaurant is Luigi's, not Luigi.
func (f *filler) spanValue(a, b int) string {
	v := cleanValue(f.text[f.toks[a].start:f.toks[b].end])
	if b+1 >= len(f.toks) || endsClause(f.toks[b].raw) || fillers[f.toks[b+1].word] {
		return v
	}
	if s, ok := strings.CutSuffix(v, "'s"); ok {
		v = s
	} else if s, ok := strings.CutSuffix(v, "’s"); ok {
		v = s
	}
	return v
}

// cleanValue trims sentence punctuation, quotes and unbalanced brackets.
func cleanValue(v string) string {
	for {
		w := trimValue(strings.TrimSpace(v))
		w = strings.Trim(w, `"'“”‘’`)
		if strings.HasPrefix(w, "(") && !strings.Contains(w, ")") {
			w = w[1:]
		}
		if strings.HasPrefix(w, "(") && strings.HasSuffix(w, ")") && strings.Count(w, "(") == 1 {
			w = w[1 : len(w)-1]
		}
		if w == v {
			return v
		}
		v = w
	}
}

// contentWord: a lower-case word that may be a value on its own ("the
// cardio workout", "the churn_scores table"): no common word of requests
// and no tool word.
func (f *filler) contentWord(i int) bool {
	if !f.free(i) {
		return false
	}
	t := f.toks[i]
	if commonWord(t.word) || f.tool[t.word] {
		return false
	}
	if snakeCase.MatchString(t.word) {
		return true // a name of something: "the churn_scores table"
	}
	for _, r := range t.word {
		if !unicode.IsLetter(r) && r != '-' {
			return false
		}
	}
	return true
}

// verbs that open requests; never a value.
var verbs = setOf("tell", "provide", "retrieve", "find", "check", "create", "delete", "update", "calculate", "generate",
	"search", "send", "start", "stop", "analyze", "analyse", "monitor", "track", "book", "add", "remove", "set", "obtain",
	"assess", "evaluate", "perform", "convert", "translate", "schedule", "submit", "please", "help", "explain", "describe",
	"compute", "estimate", "measure", "predict", "recommend", "suggest", "verify", "validate", "show", "list", "display",
	"play", "open", "close", "enroll", "register", "train", "test", "optimize", "deploy", "lock", "unlock", "format",
	"select", "extract", "post", "publish", "edit", "make", "build", "run", "launch", "instruct", "rotate", "normalize",
	"choose", "use", "give", "get", "fetch", "show", "pick", "apply", "request", "order", "cancel", "buy", "sell")

// quotedAt returns the unused bare quoted pair whose opening quote is the
// first non-space byte at or after offset at, or -1.
func (f *filler) quotedAt(at int) int {
	for i, pr := range f.pairs {
		if pr.key != "" || f.pairUsed[i] {
			continue
		}
		if pr.start >= at && strings.TrimSpace(f.text[at:pr.start]) == "" {
			return i
		}
	}
	return -1
}

// quotedEndingAt returns the unused bare quoted pair that ends just
// before offset at (spaces between), or -1.
func (f *filler) quotedEndingAt(at int) int {
	for i, pr := range f.pairs {
		if pr.key != "" || f.pairUsed[i] {
			continue
		}
		if pr.end <= at && strings.TrimSpace(f.text[pr.end:at]) == "" {
			return i
		}
	}
	return -1
}

func (f *filler) takeQuoted(p *property, i int) bool {
	if i < 0 || !f.try(p, f.pairs[i].value) {
		return false
	}
	f.pairUsed[i] = true
	return true
}

// afterCue is where a value may start after token i: past the cue words
// "named", "called", "of", "with", "is", ":" (at most two).
func (f *filler) afterCue(i int) int {
	k := i + 1
	for n := 0; n < 2 && f.free(k) && (cueWords[f.toks[k].word] || f.toks[k].word == ":" || f.toks[k].word == "="); n++ {
		if q := f.quotedAt(f.toks[k-1].end); q >= 0 && f.pairs[q].start < f.toks[k].start {
			// A quoted value comes first: "product 'Tablet' with …".
			break
		}
		k++
	}
	return k
}

// prepositions and pronouns are never a value word.
var (
	prepositions = setOf("during", "after", "before", "since", "until", "between", "through", "over", "under", "near",
		"per", "including", "without", "within", "across", "among", "like", "than", "towards", "toward", "upon",
		"against", "along", "around", "behind", "beyond", "despite", "except", "inside", "outside", "versus", "via")
	pronouns = setOf("someone", "somebody", "anyone", "anybody", "everyone", "everybody", "something", "anything",
		"everything", "nothing", "me", "us", "them", "him", "her", "it", "we", "they", "he", "she", "mine", "yours",
		"one", "ones", "each", "all", "both", "either", "neither", "other", "others", "another")
)

// discourse words open a sentence or clause and are never a value.
var discourse = setOf("then", "finally", "lastly", "after", "afterwards", "additionally", "also", "next", "first", "second",
	"third", "furthermore", "moreover", "however", "if", "once", "when", "while", "please", "thank", "thanks", "meanwhile",
	"besides", "otherwise", "now", "so", "and", "but", "or")

var cueWords = setOf("named", "called", "titled", "entitled", "labeled", "labelled", "of", "with", "is", "as", "for", "by")

// valueAfter reads a value for p that starts after token i (past cue
// words): a quoted value, a name, or a code-like word. It returns whether
// it took one, marking what it used.
func (f *filler) valueAfter(p *property, i int, lower bool) bool {
	if r := f.toks[i].raw; strings.HasSuffix(r, ".") || strings.HasSuffix(r, "!") || strings.HasSuffix(r, "?") {
		// "a secure password. Then, …": the sentence is over.
		return false
	}
	at := f.toks[i].end
	k := f.afterCue(i)
	if k > i+1 {
		at = f.toks[k-1].end
	}
	if q := f.quotedAt(at); q >= 0 && (k >= len(f.toks) || f.pairs[q].start < f.toks[k].start) {
		if f.takeQuoted(p, q) {
			f.useTokens(rangeIdx(i, k-1)...)
			return true
		}
		return false
	}
	if !f.free(k) {
		return false
	}
	if w := f.toks[k].word; w == "id" || w == "identifier" || w == "number" {
		// "the style guide with ID 29DXtd3K"
		if !f.free(k+1) || !looksLikeID(f.toks[k+1].value) {
			return false
		}
		if f.try(p, f.toks[k+1].value) {
			f.useTokens(rangeIdx(i, k+1)...)
			return true
		}
		return false
	}
	raw := f.toks[k].raw
	switch {
	case looksLikeValue(trimValue(trimQuotes(raw))) && !isClock(f.toks[k].word):
		if f.try(p, cleanValue(raw)) {
			f.useTokens(rangeIdx(i, k)...)
			return true
		}
	case capWord(raw):
		if last := f.capRun(k); last >= 0 && f.try(p, f.spanValue(k, last)) {
			f.useTokens(rangeIdx(i, last)...)
			return true
		}
	case lower && k == i+1 && f.bareNameAfterHead(p, i):
		if f.try(p, cleanValue(raw)) {
			f.useTokens(i, k)
			return true
		}
	case lower && k > i+1 && f.toks[k-1].word == "of" && f.contentWord(k):
		// "the task of cleaning.", "the area of smoking regulations in …"
		if last := f.phraseEnd(k, 3); last >= 0 && f.try(p, f.spanValue(k, last)) {
			f.useTokens(rangeIdx(i, last)...)
			return true
		}
	}
	return false
}

// bareNameAfterHead: the word after the noun at token i names the thing,
// lower case and all ("in namespace payments", "container nginx since
// 15m", "on schedule sre-primary"): the noun opens its phrase (after a
// preposition, a determiner or the request's verb: "the pod logs" is the
// noun as a modifier) and the word, no common word, nor the tool's own
// or the parameter's, ends the phrase. Only capitals, digits or marks made a value before,
// and names like these were dropped.
func (f *filler) bareNameAfterHead(p *property, i int) bool {
	if i == 0 || endsClause(f.toks[i].raw) || !f.contentWord(i+1) || f.phraseEnd(i+1, 1) != i+1 || slices.Contains(p.words, f.toks[i+1].word) {
		return false // "the dance style": the rest of the parameter's name
	}
	if w := f.toks[i+1].word; leftoverFraming[w] || modifierWord(w) && !f.nounInIng(i+1) {
		return false // "the door locked", "the text according to …"
	}
	prev := f.toks[i-1].word
	// After another thing's value a pair starts: "pod web-2 container
	// sidecar".
	afterValue := isCode(f.toks[i-1].value)
	opens := listStops[prev] || prepositions[prev] || determiners[prev] || prev == "of" || i == 1 && !fillers[prev] || afterValue
	return opens && !endsClause(f.toks[i-1].raw)
}

// nounInIng: the word at token k ends in -ing and is a name ("environment
// staging", "namespace billing"), not a participle that takes "to" after
// it ("according to", "relating to").
func (f *filler) nounInIng(k int) bool {
	return strings.HasSuffix(f.toks[k].word, "ing") && !(k+1 < len(f.toks) && f.toks[k+1].word == "to")
}

// phraseEnd reads up to max content words from token k that end the
// clause or meet a word that is not content (a preposition, an article),
// returning the last one's index, or -1.
func (f *filler) phraseEnd(k, max int) int {
	last := k
	for n := 1; n < max && !endsClause(f.toks[last].raw) && f.contentWord(last+1); n++ {
		last++
	}
	if endsClause(f.toks[last].raw) || last+1 >= len(f.toks) {
		return last
	}
	if next := f.toks[last+1]; !next.used && (prepositions[next.word] || fillers[next.word] || determiners[next.word]) && !f.tool[next.word] {
		return last
	}
	if f.changeParticle(last + 1) {
		return last // "scale payments up to 12": the verb's particle and its change
	}
	return -1
}

// changeParticle: token k is a verb's particle of direction and a
// preposition of its change follows ("up to 12", "down by 2"), a phrase
// of the verb and no word of the value before it.
func (f *filler) changeParticle(k int) bool {
	if k+1 >= len(f.toks) || f.toks[k].used || endsClause(f.toks[k].raw) {
		return false
	}
	w, next := f.toks[k].word, f.toks[k+1].word
	return (w == "up" || w == "down") && (next == "to" || next == "by")
}

func rangeIdx(a, b int) []int {
	var out []int
	for k := a; k <= b; k++ {
		out = append(out, k)
	}
	return out
}

// applyIDs reads identifiers: "with the ID X", "engine ID 'X'", "ID number
// 82", "identified by 'X'". When the tool has several identifier
// parameters, the word before "ID" says which (attacker ID, target ID).
func (f *filler) applyIDs() {
	for i := range f.toks {
		t := f.toks[i]
		if t.used {
			continue
		}
		isID := t.word == "id" || t.word == "identifier"
		if t.word == "identified" && f.free(i+1) && f.toks[i+1].word == "by" {
			isID = true
		}
		if !isID {
			continue
		}
		p := f.idTarget(i)
		if p == nil {
			continue
		}
		k := i
		if f.free(k+1) && (f.toks[k+1].word == "number" || f.toks[k+1].word == "by") {
			k++
		}
		f.idValue(p, i, k)
	}
}

// idValue reads the identifier after token k (quoted, or the next word)
// for p, using tokens i..k with it.
func (f *filler) idValue(p *property, i, k int) bool {
	if q := f.quotedAt(f.toks[k].end); q >= 0 && (k+1 >= len(f.toks) || f.pairs[q].start < f.toks[k+1].start) {
		if f.takeQuoted(p, q) {
			f.useTokens(rangeIdx(i, k)...)
			return true
		}
		return false
	}
	n := k + 1
	if f.free(n) && (f.toks[n].word == "is" || f.toks[n].word == ":" || f.toks[n].word == "of") {
		n++
	}
	if !f.free(n) {
		return false
	}
	v := f.toks[n].value
	if v == "" || fillers[strings.ToLower(v)] || !looksLikeID(v) {
		return false
	}
	if f.try(p, v) {
		f.useTokens(rangeIdx(i, n)...)
		return true
	}
	return false
}

// looksLikeID: one word with a digit or a capital letter after the first
// rune, or all capitals ("ABC"), i.e. not an ordinary word.
func looksLikeID(v string) bool {
	if strings.ContainsAny(v, " \t") {
		return false
	}
	for i, r := range v {
		if unicode.IsDigit(r) || i > 0 && unicode.IsUpper(r) || r == '-' || r == '_' {
			return true
		}
	}
	return false
}

// idTarget picks the identifier property an "ID" at token i is for.
func (f *filler) idTarget(i int) *property {
	var cands []*property
	for _, p := range f.s.props {
		if f.missing(p) && isIDProp(p) && p.typ != "boolean" && p.typ != "array" && p.typ != "object" {
			cands = append(cands, p)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	// The nearest noun before "ID" (past "with the") that a candidate is
	// named for.
	for k := i - 1; k >= 0 && k >= i-4; k-- {
		w := f.toks[k].word
		for _, p := range cands {
			if len(p.words) > 1 && isHead(w, p.words[len(p.words)-2]) {
				return p
			}
		}
		if !determiners[w] && w != "with" && w != "by" && w != "of" && w != "for" && w != "has" && w != "having" {
			break
		}
	}
	if len(cands) == 1 {
		return cands[0]
	}
	// Else a candidate whose noun the request mentions anywhere.
	for _, p := range cands {
		if len(p.words) > 1 {
			h := p.words[len(p.words)-2]
			for _, t := range f.toks {
				if isHead(t.word, h) {
					return p
				}
			}
		}
	}
	return cands[0]
}

// applyHeads reads values next to the nouns that name parameters: after
// the noun ("the game 'Tetris'", "the player named Cristiano Ronaldo", "the
// task of cleaning"), or before it ("the 'SHAP' method", "the Sales team",
// "the retouching method", "cloth seats").
func (f *filler) applyHeads() {
	for _, p := range f.s.props {
		if !f.missing(p) || !stringProp(p) || p.date {
			continue
		}
		hs := heads(p)
		for i := 0; i < len(f.toks) && f.missing(p); i++ {
			if !f.free(i) || !f.matchesHead(i, hs) {
				continue
			}
			// What a message says is never the words before its noun: "a
			// short text" says what kind of text.
			if f.ownerName(p, i) || !f.verbSlot(i) && f.valueAfter(p, i, true) || !fitsName(p, contentNames) && f.valueBefore(p, i) {
				break
			}
		}
		if f.missing(p) {
			f.verbCue(p)
		}
	}
}

// verbCue reads a value after the verb a property is named for:
// "targeting young professionals" for target_audience.
func (f *filler) verbCue(p *property) {
	if len(p.words) < 2 || len(p.words[0]) < 4 {
		return
	}
	w := p.words[0]
	forms := []string{w + "ing", strings.TrimSuffix(w, "e") + "ing"}
	for i := range f.toks {
		if !f.free(i) || (f.toks[i].word != forms[0] && f.toks[i].word != forms[1]) || endsClause(f.toks[i].raw) {
			continue
		}
		k := i + 1
		for f.free(k) && determiners[f.toks[k].word] {
			k++
		}
		if q := f.quotedAt(f.toks[k-1].end); q >= 0 && (k >= len(f.toks) || f.pairs[q].start < f.toks[k].start) {
			if f.takeQuoted(p, q) {
				f.useTokens(rangeIdx(i, k-1)...)
			}
			return
		}
		if !f.free(k) {
			continue
		}
		last := f.capRun(k)
		if last < 0 && f.contentWord(k) {
			last = f.phraseEnd(k, 3)
		}
		if last >= 0 && f.try(p, f.spanValue(k, last)) {
			f.useTokens(rangeIdx(i, last)...)
			return
		}
	}
}

func (f *filler) matchesHead(i int, hs []string) bool {
	for _, h := range hs {
		if isHead(f.toks[i].word, h) {
			return true
		}
	}
	return false
}

// valueBefore reads a value for p written just before its noun at token h.
func (f *filler) valueBefore(p *property, h int) bool {
	// The noun may be the end of the whole name ("payment method"), and
	// the value may stand before "as your payment method".
	for h > 0 && f.free(h-1) && f.isNameWord(p, f.toks[h-1].word) {
		h--
	}
	if k := h - 1; k > 0 && f.free(k) && determiners[f.toks[k].word] && f.toks[k-1].word == "as" && f.free(k-1) {
		if q := f.quotedEndingAt(f.toks[k-1].start); q >= 0 && (k < 2 || f.pairs[q].start > f.toks[k-2].start) {
			if f.takeQuoted(p, q) {
				f.useTokens(rangeIdx(k-1, h)...)
				return true
			}
			return false
		}
		if first := f.capRunBack(k - 2); first >= 0 && k >= 2 && f.try(p, f.spanValue(first, k-2)) {
			f.useTokens(rangeIdx(first, h)...)
			return true
		}
		return false
	}
	if q := f.quotedEndingAt(f.toks[h].start); q >= 0 && (h == 0 || f.pairs[q].start > f.toks[h-1].start) {
		if f.takeQuoted(p, q) {
			f.useTokens(h)
			return true
		}
		return false
	}
	// The noun itself capitalised belongs to a name ("the Supreme Court").
	if capWord(f.toks[h].raw) && !f.sentenceStart(h) {
		if first := f.capRunBack(h); first >= 0 && first < h {
			if f.productOnly(first, h-1) {
				return false // "Google Sheets" is the product, not a sheet's name
			}
			if f.try(p, f.spanValue(first, h)) {
				f.useTokens(rangeIdx(first, h)...)
				return true
			}
		}
	}
	if h == 0 || !f.free(h-1) || endsClause(f.toks[h-1].raw) {
		return false
	}
	if capWord(f.toks[h-1].raw) || innerWord(f.toks[h-1].raw) && h >= 2 && capWord(f.toks[h-2].raw) {
		first := f.capRunBack(h - 1)
		if first < 0 || strings.HasSuffix(f.toks[h-1].raw, "'s") || strings.HasSuffix(f.toks[h-1].raw, "’s") {
			// "Generosity Inc.'s activities": the name owns the thing.
			return false
		}
		if f.productOnly(first, h-1) {
			return false // "a new Google spreadsheet" names no spreadsheet
		}
		if f.try(p, f.spanValue(first, h-1)) {
			f.useTokens(rangeIdx(first, h)...)
			return true
		}
		return false
	}
	// One or two lower-case content words after a determiner, a
	// preposition or the start of a clause.
	first := h - 1
	if !f.contentWord(first) {
		return false
	}
	if f.contentWord(first-1) && !endsClause(f.toks[first-1].raw) {
		first--
	}
	if first > 0 {
		prev := f.toks[first-1]
		if !determiners[prev.word] && !fillers[prev.word] && !endsClause(prev.raw) && !vague[prev.word] {
			return false
		}
	}
	// A compound is taken whole ("the living room lamp" → living room),
	// unless the description names its first word as a value ("Which
	// door, e.g. front, back").
	if f.compoundAt(h-1) && !describesWord(p, f.toks[h-1].word) {
		if f.try(p, f.spanValue(first, h)) {
			f.useTokens(rangeIdx(first, h)...)
			return true
		}
		return false
	}
	if f.try(p, f.spanValue(first, h-1)) {
		f.useTokens(rangeIdx(first, h)...)
		return true
	}
	return false
}

// commonWord: a word requests use for their own sake, whatever they ask
// for: a filler, determiner, vague word, connector, verb of asking,
// preposition, pronoun or discourse word.
func commonWord(w string) bool {
	return fillers[w] || determiners[w] || vague[w] || connectors[w] || verbs[w] || prepositions[w] || pronouns[w] || discourse[w]
}
