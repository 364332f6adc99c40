package resolve

// applySayIn is rule say_in: "how do you say thank you very much in
// German", "say good night in Japanese": the words between "say" and the
// language a language parameter took are the text to put into it, for
// the one required text parameter missing. Without it the request asks
// for the text it already gives. The language must end the request or
// its clause, and every word between be free. A reference ("say it in
// French", "say this sentence in French") is left to the context.
func (f *filler) applySayIn() {
	target := f.onlyMissingText()
	if target == nil {
		return
	}
	for i := range f.toks {
		if !f.free(i) || f.toks[i].word != "say" || endsClause(f.toks[i].raw) {
			continue
		}
		j := f.languageAfter(i + 1)
		if j <= i+1 {
			continue
		}
		if f.reference(i+1, j-1) {
			return
		}
		if f.try(target, f.spanValue(i+1, j-1)) {
			f.useTokens(rangeIdx(i, j-1)...)
		}
		return
	}
}

// languageAfter is the first token from k that is "in" or "into" before a
// language another rule placed, ending the request or its clause, with
// every token between free; -1 when there is none.
func (f *filler) languageAfter(k int) int {
	for j := k; j+1 < len(f.toks); j++ {
		if f.free(j) {
			continue
		}
		w := f.toks[j].word
		if (w == "in" || w == "into") && languages[f.toks[j+1].word] && !f.free(j+1) && (j+2 == len(f.toks) || endsClause(f.toks[j+1].raw)) {
			return j
		}
		return -1
	}
	return -1
}

// demonstratives point at something said before: "this sentence".
var demonstratives = setOf("this", "that", "these", "those")

// reference: tokens [a, b] point at a text rather than write it: a
// pronoun alone, or a demonstrative and its noun.
func (f *filler) reference(a, b int) bool {
	return referenceWords(f.toks[a].word, b-a+1)
}

// referenceWords: n words opening with first point at a text (reference).
func referenceWords(first string, n int) bool {
	return n == 1 && (pronounValues[first] || determiners[first]) || n == 2 && demonstratives[first]
}
