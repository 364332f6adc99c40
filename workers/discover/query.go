package discover

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
)

// maxQueryBytes bounds the text analysed per query. Intents are a sentence
// or two; anything past this is pasted material, and the terms that matter
// were already seen.
const maxQueryBytes = 32 << 10

// parsedQuery is a query text analysed once for both retrieval and confidence.
type parsedQuery struct {
	// raw is the query text as analysed (clipped to maxQueryBytes).
	raw string
	// terms are the distinct analysed terms in order of first appearance.
	terms []string
	// describing are the distinct terms that describe the wanted tool
	// rather than give it values: words (a term starting with a digit is a
	// number, a time or a date: "50", "3pm", "2024"; one starting with a
	// letter is a word even with digits: "sha256", "mp4", "ipv6"), outside
	// quotes, addresses and paths. Confidence asks how much of this part of the
	// query a tool covers; a city, an id or a quoted phrase is no evidence
	// for or against a tool.
	describing []string
	// words are the exact (unstemmed, stop words kept) words, for name mentions.
	words []string
	// surface maps each term to the lower-cased word it was analysed from
	// (its first occurrence), for soft matching with word vectors.
	surface map[string]string
	// valueOnly are the terms seen only inside values (paths, addresses,
	// quotes): "log" in /var/log/syslog. Nil when the request is nothing
	// but values.
	valueOnly map[string]bool
	// kinds are the kinds of the values the request states (valuekinds.go).
	kinds valueKind
	// asked are the kinds of effect the request surely asks for, unsure
	// the verbs that may head a noun phrase instead (action.go, askedOf).
	asked  actionKind
	unsure []unsureVerb
	// whatIs: the request is a question about what is (asksWhatIs).
	whatIs bool
	// spaced is words joined by single spaces, with one at each end, for
	// finding a name or a phrase as whole words (containsRun).
	spaced string
	// implies are the kinds whose word the request's values stand for
	// ("euros" → currency: impliedWords): their terms are searched and
	// covered as its own words.
	implies valueKind
}

// values matches the parts of a request that are argument values rather
// than a description of the tool: quoted text ("…", “…”, and '…' when the
// quotes are not apostrophes as in don't or users'), e-mail addresses,
// URLs, file paths, dotted names (example.org, notes.txt: "is example.org
// up" searched "example" and found the e-mail tool, whose examples use
// it), and the value of a key=value argument (the key stays: it may name
// a parameter).
var values = regexp.MustCompile(strings.Join([]string{
	`"[^"]*"`,
	`“[^”]*”`,
	`(?:^|[^\pL\pN])'[^']*'(?:[^\pL\pN]|$)`,
	`[^\s@"'<>()]+@[^\s@"'<>()]+`,
	`\b[a-zA-Z][a-zA-Z0-9+.-]*://\S+`,
	`(?:^|\s)(?:~|\.{1,2})?/\S*`,
	`\b[a-zA-Z]:\\\S*`,
	`=(?:"[^"]*"|'[^']*'|\S+)`,
	`\b(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z][A-Za-z0-9]+\b`,
}, "|"))

// valueMarks are the characters without which values matches nothing:
// quotes, @, the slash of URLs and paths, the backslash of Windows paths,
// the = of key=value, the dot of dotted names.
const valueMarks = "\"“'@/\\=."

func (e *Engine) parse(text string) parsedQuery {
	text = clipUTF8(text, maxQueryBytes)
	q := parsedQuery{raw: text, words: terms(e.exact, text)}
	q.spaced = " " + strings.Join(q.words, " ") + " "
	var unsure []string
	plain := plainWords(text)
	q.asked, unsure = requestAction(plain)
	q.whatIs = q.asked == 0 && asksWhatIs(plain)
	for _, w := range unsure {
		if ts := terms(e.text, w); len(ts) > 0 {
			q.unsure = append(q.unsure, unsureVerb{kind: actionVerbs[w], term: ts[0]})
		}
	}
	toks := e.text.Analyze([]byte(text))
	var spans [][]int
	// Every kind of value has one of these characters: most requests have
	// none, and skip the expression.
	if strings.ContainsAny(text, valueMarks) {
		spans = values.FindAllStringIndex(text, -1)
	}
	for _, sp := range spans {
		q.kinds |= kindOf(text[sp[0]:sp[1]])
	}
	q.implies = q.kinds & kindEmail
	if hasUpper(text) {
		if ps := placeSpans(text); len(ps) > 0 {
			var added bool
			spans, added = mergeSpans(spans, ps)
			if added {
				q.kinds |= kindPlace
			}
		}
	}
	if len(languageSpans(text)) > 0 {
		q.kinds |= kindLanguage
	}
	if ms := moneyMentions(text); len(ms) > 0 {
		q.kinds |= kindCurrency
		if slices.ContainsFunc(ms, func(m moneyMention) bool { return m.named }) {
			q.implies |= kindCurrency
		}
	}
	var inValueOnly map[string]bool // term → seen in values only
	if len(spans) > 0 {
		inValueOnly = make(map[string]bool, len(toks))
	}
	seen := make(map[string]bool, len(toks))
	described := make(map[string]bool, len(toks))
	q.surface = make(map[string]string, len(toks))
	for _, tok := range toks {
		t := string(tok.Term)
		if !seen[t] {
			seen[t] = true
			q.terms = append(q.terms, t)
			if tok.Start >= 0 && tok.End <= len(text) && tok.Start < tok.End {
				q.surface[t] = strings.ToLower(text[tok.Start:tok.End])
			}
		}
		for len(spans) > 0 && spans[0][1] <= tok.Start {
			spans = spans[1:]
		}
		inValue := len(spans) > 0 && spans[0][0] <= tok.Start
		if only, ok := inValueOnly[t]; inValueOnly != nil && (!ok || only) {
			inValueOnly[t] = inValue
		}
		if !inValue && !described[t] && isWord(t) {
			described[t] = true
			q.describing = append(q.describing, t)
		}
	}
	for t, only := range inValueOnly {
		if !only {
			delete(inValueOnly, t)
		}
	}
	if len(inValueOnly) > 0 {
		q.valueOnly = inValueOnly
	}
	for k := valueKind(1); q.implies != 0 && k < kindsEnd; k <<= 1 {
		if q.implies&k == 0 {
			continue
		}
		for _, t := range e.implied[k] {
			if !seen[t] {
				seen[t] = true
				q.terms = append(q.terms, t)
				q.describing = append(q.describing, t)
			}
		}
	}
	if len(q.describing) == 0 {
		// Nothing but values ("[TOOL: 'report.pdf']"): judge by what there is.
		for _, t := range q.terms {
			if isWord(t) {
				q.describing = append(q.describing, t)
			}
		}
	}
	if len(q.describing) == 0 {
		q.describing = q.terms
	}
	return q
}

// searchTerms are the query terms worth searching: those some tool
// contains (others cannot match), at most maxQueryTerms of them, rarest
// first; words seen only inside values (paths, addresses, quotes) only when
// no other word is known. Caller holds the read lock.
//
// A value's words say what the request is about, not what should be done
// with it: the "log" of /var/log/syslog pulled "show the end of a log"
// above "count the lines" for "how many lines are in" that file, and
// confidently. The vectors still read the whole request, where such words
// weigh as one among many. Measured on 2026-11-27 against searching them
// (hybrid hit@1): the held-out request sets of training/eval/testdata/holdout
// the same or better (sample 0.877 → 0.889, study 0.692 → 0.705), Seal-Tools
// dev 0.960 → 0.959, MetaTool dev 0.468 → 0.467. The calibration of the
// time (default-6) held on the new rankings (no ECE of toolyard eval
// calibration --held-out moved by more than 0.01); it was refitted on them
// as default-7 (calibration.go).
func (e *Engine) searchTerms(q parsedQuery) []string {
	known := e.knownTerms(q.terms, q.valueOnly)
	if len(known) == 0 && len(q.valueOnly) > 0 {
		known = e.knownTerms(q.terms, nil)
	}
	if len(known) > e.cfg.maxQueryTerms {
		sort.SliceStable(known, func(i, j int) bool { return e.stats.df[known[i]] < e.stats.df[known[j]] })
		known = known[:e.cfg.maxQueryTerms]
	}
	return known
}

// knownTerms are the terms some tool contains, but those in skip.
func (e *Engine) knownTerms(terms []string, skip map[string]bool) []string {
	known := make([]string, 0, len(terms))
	for _, t := range terms {
		if e.stats.df[t] > 0 && !skip[t] {
			known = append(known, t)
		}
	}
	return known
}

// textClauses are the (term, field) pairs a text query searches: each
// term in each text field that has it (others cannot match), with the
// field's boost. Caller holds the read lock.
//
// Every term weighs the same. Weighing each by the SIF weight of its word
// (a/(a+p(w)), its frequency in the word vectors' corpus, so that common
// request words count less in a registry too small for idf to know them)
// was measured on 2026-11-26 and not kept: hybrid hit@1 0.778 → 0.806 on
// the assistant request set, 0.847 → 0.833 on the data API's, 0.468 →
// 0.474 on MetaTool dev, 0.960 → 0.957 on Seal-Tools dev.
func (e *Engine) textClauses(ts []string) []clause {
	fields := textFields(e.cfg.boosts)
	cls := make([]clause, 0, len(ts)*len(fields))
	for _, t := range ts {
		for _, f := range fields {
			if e.stats.inField[f.name][t] == 0 {
				continue
			}
			cls = append(cls, clause{field: f.index, term: t, boost: f.boost})
		}
	}
	return cls
}

// disjunction is the bleve query that matches any of the clauses. Terms
// are already analysed, so term queries are built directly: no query
// syntax is ever parsed and no user text can make the query invalid.
func disjunction(cls []clause) query.Query {
	qs := make([]query.Query, len(cls))
	for i, c := range cls {
		tq := bleve.NewTermQuery(c.term)
		tq.SetField(indexedFields[c.field])
		tq.SetBoost(c.boost)
		qs[i] = tq
	}
	return bleve.NewDisjunctionQuery(qs...)
}

// clipUTF8 shortens s to at most n bytes without splitting a character.
func clipUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// vectorText is what the vector side embeds of a query. Searching with
// vectors alone (ModeVector) and the local word vectors (e.soft is set), it
// is only the describing words, as written: request phrasing ("could you
// help me find …"), stop words and argument values are words every tool is
// equally far from, and in an average of word vectors they only blur the
// request (dev sets, vector only: MetaTool hit@1 0.352 → 0.381, Seal-Tools
// 0.614 → 0.671). Fused with the keyword side (hybrid) the whole text is
// embedded: there the vector side is worth what the keyword words miss, and
// describing words alone measured no better (MetaTool hit@1 0.469 → 0.473,
// Seal-Tools 0.959 → 0.953). A sentence encoder (another embedder) always
// reads the whole text, phrasing included, as it was trained to.
func (e *Engine) vectorText(q parsedQuery, text string, mode Mode) string {
	text = clipUTF8(text, maxQueryBytes)
	if e.soft == nil || mode != ModeVector {
		return text
	}
	words := make([]string, 0, len(q.describing))
	for _, t := range q.describing {
		if w := q.surface[t]; w != "" {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return text
	}
	return strings.Join(words, " ")
}

// isWord says whether a term can describe a tool rather than be a value:
// it does not start with a digit.
func isWord(t string) bool {
	r, _ := utf8.DecodeRuneInString(t)
	return r != utf8.RuneError && !unicode.IsDigit(r)
}
