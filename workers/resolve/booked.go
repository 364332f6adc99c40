package resolve

// bookVerbs put a thing on a calendar or an agenda: what they book is the
// thing's title ("book a design review"). placeVerbs do so only where the
// request says where it goes ("put lunch on my calendar"): "add a task"
// alone names no task.
var (
	bookVerbs  = setOf("book", "schedule", "arrange", "plan", "organize", "organise", "set")
	placeVerbs = setOf("put", "add")
)

// applyBooked is rule booked: the thing the request's verb books or
// schedules ("book a 90 minute design review next Thursday", "put lunch
// with Sam on my calendar") is the title of what the tool makes, for the
// one required title parameter missing. Left to the names rule, the one
// capitalised word of the request ("Sam", a room's name) would run as the
// title. The phrase follows the verb (set only as "set up"; put and add
// only before where it goes, a word of the tool's: "on my calendar"), past an
// article and the words another rule read there (a length), and ends at
// a preposition, a word another rule used or the end of the clause; a
// person it is with joins it ("lunch with Sam"). Only the tool's own
// words ("schedule a meeting") or a reference ("book it") name nothing.
func (f *filler) applyBooked() {
	target := f.soleMissing(func(p *property) bool { return stringProp(p) && fitsName(p, titleNames) })
	v := f.verbIndex()
	if target == nil || !f.free(v) || !bookVerbs[f.toks[v].word] && !placeVerbs[f.toks[v].word] || endsClause(f.toks[v].raw) {
		return
	}
	k := v + 1
	if f.toks[v].word == "set" {
		if !f.free(k) || f.toks[k].word != "up" {
			return
		}
		k++
	}
	for k < len(f.toks) && (f.free(k) && determiners[f.toks[k].word] || f.toks[k].used && !endsClause(f.toks[k].raw)) {
		k++
	}
	last, own := f.bookedPhrase(k)
	if last < k || own {
		return
	}
	if !endsClause(f.toks[last].raw) && f.free(last+1) && f.toks[last+1].word == "with" {
		if n := f.capRun(last + 2); n >= 0 {
			last = n
		}
	}
	if placeVerbs[f.toks[v].word] && !f.putOnTool(last+1) {
		return
	}
	if f.try(target, f.spanValue(k, last)) {
		f.useTokens(rangeIdx(k, last)...)
	}
}

// bookedPhrase reads the plain words from token k, at most five, to a
// preposition, a framing word, a recurrence ("every day", "each
// Monday"), a word another rule used or the end of the clause: where it
// ends, and whether every word is the tool's own.
func (f *filler) bookedPhrase(k int) (last int, own bool) {
	last, own = k-1, true
	for j := k; j < len(f.toks) && j-k < 5 && f.free(j); j++ {
		w := f.toks[j].word
		if !f.contentWord(j) && !(f.tool[w] && !commonWord(w)) || prepositions[w] || objectPreps[w] || placePreps[w] || subordinators[w] || timeWord(w) || recurrenceWords[w] {
			break
		}
		own = own && f.tool[w]
		last = j
		if endsClause(f.toks[j].raw) {
			break
		}
	}
	return last, own
}

// recurrenceWords open a recurrence: "every day", "each Monday".
var recurrenceWords = setOf("every", "each")

// putPreps say where a thing is put (putOnTool).
var putPreps = setOf("on", "to", "in", "into", "onto")

// putOnTool: tokens from i say where a thing is put, in a word of the
// tool's own: "on my calendar", "to the agenda".
func (f *filler) putOnTool(i int) bool {
	if !f.free(i) || !putPreps[f.toks[i].word] {
		return false
	}
	i++
	for f.free(i) && determiners[f.toks[i].word] {
		i++
	}
	return i < len(f.toks) && f.tool[f.toks[i].word]
}
