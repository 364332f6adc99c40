package resolve

import "strings"

// A request put as a question about how things are ("is the back door
// locked?", "what's on the list", "how many lights are on") asks the tool
// to read, not to change anything. A tool that both reads and changes
// takes which in an enum parameter (lock, unlock, status; add, remove,
// read), and no word of such a question names the read: left empty, the
// call asked the agent for it.

// questionOpeners open a question about how things are. can, could,
// would and will are not among them: "can you lock the door" is a
// command put politely (politeAsks).
var questionOpeners = union(yesNoOpeners, setOf("what", "what's", "whats", "which", "who", "who's", "whose", "where", "where's", "when", "when's"))

// yesNoOpeners open a question answered yes or no ("is the door
// locked"): the flags rule sets nothing in one.
var yesNoOpeners = setOf("is", "are", "was", "were", "does", "do", "did", "has", "have")

func union(a, b map[string]bool) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for w := range a {
		out[w] = true
	}
	for w := range b {
		out[w] = true
	}
	return out
}

// commandAuxiliaries open a command as well as a question ("have the
// floors cleaned", "do a quick scan"): a question only with its question
// mark.
var commandAuxiliaries = setOf("do", "have")

// howOpeners follow "how" in a question about how much there is ("how
// many lights are on"); "how do I …" asks for a way, not a state.
var howOpeners = setOf("many", "much")

// readValues are the enum values that read rather than change.
var readValues = setOf("status", "state", "read", "get", "list", "show", "check", "info", "view")

// applyStateQuestions is the rule state_questions: a request that opens
// as a question about how things are fills the one missing enum parameter
// that has exactly one value that reads (status, read, get …) with it.
func (f *filler) applyStateQuestions() {
	if !f.asksState() {
		return
	}
	reads := func(p *property) bool { _, ok := readValue(p); return ok }
	if target := f.soleMissingWhere(reads); target != nil { // two read: which one is not said
		value, _ := readValue(target)
		f.try(target, value)
	}
}

// asksState: the request opens as a question about how things are.
func (f *filler) asksState() bool {
	if len(f.toks) < 2 || !f.sentenceStart(0) {
		return false
	}
	w := f.toks[0].word
	if commandAuxiliaries[w] {
		return strings.HasSuffix(strings.TrimSpace(f.text), "?")
	}
	return questionOpeners[w] || w == "how" && howOpeners[f.toks[1].word]
}

// readValue is the one value of p's enum that reads, if it has exactly
// one.
func readValue(p *property) (string, bool) {
	found := ""
	for _, e := range p.enum {
		if s, ok := e.(string); ok && readValues[normalize(s)] {
			if found != "" {
				return "", false
			}
			found = s
		}
	}
	return found, found != ""
}
