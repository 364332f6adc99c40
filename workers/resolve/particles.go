package resolve

// phrasalVerbs are verbs that open a request with a particle of their own
// ("echo back", "read out", "look up"): the particle is part of the verb,
// no word of the value after it.
var phrasalVerbs = map[string]map[string]bool{
	"echo": setOf("back"), "repeat": setOf("back"), "read": setOf("out", "back", "aloud"),
	"print": setOf("out"), "type": setOf("out", "up"), "spell": setOf("out"), "look": setOf("up"),
	"write": setOf("down", "out", "up"), "jot": setOf("down"), "note": setOf("down"),
	"send": setOf("over"), "hand": setOf("over"), "sum": setOf("up"), "pull": setOf("up"),
}

// applyParticles takes the particle of the request's phrasal verb out of
// the words left for values ("echo back good morning" → good morning),
// and the verb with it when it is not a word of the tool's (those are no
// value already, and verb_object reads after them): the two are the
// request's verb. A particle an earlier rule placed ("turn up the
// volume" → direction up) is the value's, not read here.
func (f *filler) applyParticles() {
	v := f.verbIndex()
	if !f.particleAt(v, v+1) || !f.free(v) || !f.free(v+1) {
		return
	}
	f.useTokens(v + 1)
	if !f.tool[f.toks[v].word] {
		f.useTokens(v)
	}
}

// particleAt: token k is a particle of the verb at token v.
func (f *filler) particleAt(v, k int) bool {
	return k < len(f.toks) && phrasalVerbs[f.toks[v].word][f.toks[k].word] && !endsClause(f.toks[v].raw)
}
