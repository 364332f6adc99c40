package resolve

import (
	"slices"
	"strconv"
	"strings"
)

// Flags: a boolean parameter is named for what it does (notifyCustomer,
// restock, insured, inStockOnly, marketingOptIn) and a request that wants
// it says so in the same words ("and notify the customer", "restock the
// items", "insured", "in stock only", "opted in to marketing"), or denies
// them ("don't notify the customer", "no dry run", "with versioning
// disabled"). No rule read a boolean but a state word, so these were
// dropped: the call ran with the flag's default.

// flagGap is how many other words may stand among a flag's name words
// ("notify the customer").
const flagGap = 2

// flagStates after a flag's words say which way it is set ("with
// versioning enabled", "dry run off").
var flagStates = map[string]bool{"enabled": true, "on": true, "true": true, "disabled": false, "off": false, "false": false}

// applyFlags is the rule flags: every missing boolean parameter whose name
// words the request writes together, in any order and any inflection
// (opt → opted), or joined by a hyphen ("dry-run"), is true, or false
// after a negation in their clause or before disabled/off; not in a
// question answered yes or no, and never for the request's verb alone
// ("update the record" sets no flag named update).
func (f *filler) applyFlags() {
	if f.asksState() && yesNoOpeners[f.toks[0].word] {
		return // "is the shed door locked": asked, not set
	}
	for _, p := range f.s.props {
		if p.typ != "boolean" || !f.missing(p) || !flagName(p.words) {
			continue
		}
		idx, ok := f.hyphenFlagAt(p.words)
		if !ok {
			idx, ok = f.flagAt(p.words)
		}
		for _, words := range p.flagSynonyms {
			if ok {
				break
			}
			idx, ok = f.flagAt(words) // notifyCustomer said "let the customer know"
		}
		if !ok || len(p.words) == 1 && len(idx) == 1 && idx[0] == f.verbIndex() && verbs[f.toks[idx[0]].word] {
			continue
		}
		on := !f.deniedAt(idx[0])
		last := idx[len(idx)-1]
		if n := last + 1; !endsClause(f.toks[last].raw) && f.free(n) {
			if v, said := flagStates[trimPunct(f.toks[n].word)]; said {
				on = on && v
				idx = append(idx, n)
			}
		}
		if f.try(p, strconv.FormatBool(on)) {
			f.useTokens(idx...)
		}
	}
}

// flagVerbs are other ways of saying a flag's first word, a verb:
// notify_customer is "tell the customer", "let the customer know".
var flagVerbs = map[string][][]string{
	"notify": {{"tell"}, {"inform"}, {"alert"}, {"let", "know"}},
}

// flagSynonymsOf are the other ways of saying a flag's name words, in the
// order they are tried: without a last "only" ("inStockOnly" said "in
// stock": "only" restricts, it names nothing), then with its verb said
// another way (flagVerbs); nil when it has none. Made once per manifest
// (property.flagSynonyms), not again for every request.
func flagSynonymsOf(words []string) [][]string {
	if len(words) < 2 {
		return nil
	}
	var out [][]string
	if w := withoutOnly(words); len(w) >= 2 {
		out = append(out, w)
	}
	for _, v := range flagVerbs[words[0]] {
		out = append(out, append(slices.Clone(v), words[1:]...))
	}
	return out
}

// withoutOnly is a flag's name words without a last "only" (in_stock_only
// → in, stock), or nil when it has none.
func withoutOnly(words []string) []string {
	if n := len(words); n > 1 && words[n-1] == "only" {
		return words[:n-1]
	}
	return nil
}

// hyphenFlagAt finds the name's words written as one hyphenated token
// ("dry-run" for dry_run).
func (f *filler) hyphenFlagAt(words []string) ([]int, bool) {
	if len(words) < 2 {
		return nil, false
	}
	joined := strings.Join(words, "-")
	for i, t := range f.toks {
		if !t.used && t.word == joined {
			return []int{i}, true
		}
	}
	return nil, false
}

// flagName: a name of two words or more ("dry run"), or one word of four
// letters or more; one short word ("all", "on") is a word of any request.
func flagName(words []string) bool {
	return len(words) > 1 || len(words) == 1 && len(words[0]) >= 4
}

// flagAt finds unused tokens within one clause that write each of words,
// no more than flagGap other words among them; it returns them in order.
func (f *filler) flagAt(words []string) ([]int, bool) {
	span := len(words) + flagGap
	for i := range f.toks {
		if idx, ok := f.flagFrom(i, words, span); ok {
			return idx, true
		}
	}
	return nil, false
}

// flagFrom reads words in the span tokens from i, the first of them at i;
// a bit of left stands for each word not yet read (names are short).
func (f *filler) flagFrom(i int, words []string, span int) ([]int, bool) {
	if len(words) > 8 {
		return nil, false
	}
	left := uint(1)<<len(words) - 1
	var idx []int
	for k := i; k < len(f.toks) && k < i+span && left != 0; k++ {
		t := f.toks[k]
		if t.used {
			return nil, false
		}
		for n, w := range words {
			if left&(1<<n) != 0 && inflects(w, t.word) {
				left &^= 1 << n
				idx = append(idx, k)
				break
			}
		}
		if len(idx) == 0 || endsClause(t.raw) && left != 0 {
			return nil, false
		}
	}
	return idx, left == 0
}

// inflects: word is w or w inflected (notify → notified, opt → opted,
// insure → insured, restock → restocking, tag → tagged).
func inflects(w, word string) bool {
	if w == "" {
		return false // a one-letter name with its plural s trimmed ("s")
	}
	if word == w || ingForm(w, word) {
		return true
	}
	for _, s := range []string{"s", "es", "d", "ed"} {
		if word == w+s {
			return true
		}
	}
	if len(w) > 3 && w[len(w)-1] == 'y' {
		stem := w[:len(w)-1]
		return word == stem+"ied" || word == stem+"ies"
	}
	if c := w[len(w)-1]; !strings.ContainsRune("aeiouwxy", rune(c)) {
		return word == w+string(c)+"ed" // tag → tagged
	}
	return false
}

// flagNegations turn a flag off besides the negations of the package:
// "no dry run", "without versioning", "disable the cache", "skip tests".
var flagNegations = setOf("no", "not", "without", "never", "disable", "skip")

// deniedAt: a negation stands in the clause before token i, at most
// three words before it ("don't notify", "without insuring", "do not
// ever notify").
func (f *filler) deniedAt(i int) bool {
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		if endsClause(f.toks[k].raw) {
			return false
		}
		if w := f.toks[k].word; negations[w] || flagNegations[w] {
			return true
		}
	}
	return false
}
