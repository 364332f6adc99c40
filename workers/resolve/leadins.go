package resolve

// Lead-ins: a title or a colon's text runs up to a value another rule
// placed, and the words that introduce that value are no part of it:
// "titled Wrong size delivered for order ORD-5512" (the id went to
// orderId) is titled "Wrong size delivered", not "… for order"; "ticket:
// Checkout page returns 500 for customer ann@example.com" (the address
// went to customerEmail) is about "Checkout page returns 500".

// leadInBefore is the last token of the value first..last once the words
// that introduce the placed value right after it are dropped: words of a
// parameter's name ("order", "customer"), after a preposition ("for",
// "with"), which is dropped too. Without a preposition nothing is dropped:
// "Checkout page" is the title's own.
func (f *filler) leadInBefore(first, last int) int {
	if last+1 >= len(f.toks) || f.free(last+1) {
		return last
	}
	k := last
	for k > first && f.namesOther(nil, f.toks[k].word) {
		k--
	}
	// The word before the preposition may end a clause or a code
	// ("rate(x[5m]) with step 30s"): the value ends there all the same.
	if w := f.toks[k].word; k > first && (shortPreps[w] || prepositions[w]) {
		return k - 1
	}
	return last
}

// placedTail: every token from i to the end went to a parameter.
func (f *filler) placedTail(i int) bool {
	for j := i; j < len(f.toks); j++ {
		if f.free(j) {
			return false
		}
	}
	return true
}
