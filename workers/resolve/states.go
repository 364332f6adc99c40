package resolve

import (
	"slices"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// A state word says which of two states a device or thing is put in: on
// or off, open or closed, locked or unlocked … A request writes it as the
// particle of a switching verb ("turn off the lights", "switch the lamp
// on", "lights off in the kitchen") or, for the words that are verbs
// themselves, as its verb ("lock the back door"). It belongs to the
// parameter whose enum or description holds it, never to a place or a
// name: "off" is no room.

// statePairs are the two states of a thing, the first the one a boolean
// named for the pair ("on", "locked", "enabled") means by true, each with
// the forms a request or a description writes it in.
var statePairs = [][2][]string{
	{{"on"}, {"off"}},
	{{"open", "opened"}, {"close", "closed", "shut"}},
	{{"lock", "locked"}, {"unlock", "unlocked"}},
	{{"start", "started"}, {"stop", "stopped"}},
	{{"enable", "enabled"}, {"disable", "disabled"}},
	{{"mute", "muted"}, {"unmute", "unmuted"}},
	{{"arm", "armed"}, {"disarm", "disarmed"}},
	{{"activate", "activated", "active"}, {"deactivate", "deactivated", "inactive"}},
}

// stateOf finds word among the states: its pair and whether it is the
// pair's first state.
func stateOf(word string) (pair int, first, ok bool) {
	st, ok := stateIndex[word]
	return st.pair, st.first, ok
}

// stateForm is where a form of a state is found in statePairs.
type stateForm struct {
	pair  int
	first bool
}

// stateIndex is statePairs by form, the first pair and side that write
// it: applyStates asks stateOf of every word of every request.
var stateIndex = func() map[string]stateForm {
	m := map[string]stateForm{}
	for k, p := range statePairs {
		for side, forms := range p {
			for _, w := range forms {
				if _, dup := m[w]; !dup {
					m[w] = stateForm{k, side == 0}
				}
			}
		}
	}
	return m
}()

// switchVerbs take on or off as their particle: "turn off", "switch … on".
var switchVerbs = setOf("turn", "turns", "turned", "turning", "switch", "switched", "switching", "flip", "flick", "power", "powered", "shut")

// particleFollowers may follow a particle that ends what it switches:
// "turn the TV on in the den", "lights off please".
var particleFollowers = setOf("in", "at", "please", "now", "and", "then", "for", "again", "too", "right", "thanks")

// applyStates fills the parameter a state word belongs to (the missing
// one whose enum holds the word, or the missing boolean whose name or
// description holds the pair: "true to switch on, false to switch off"):
// on or off when they are a switching verb's particle, right after it or
// ending the clause it opens ("turn off the lights", "switch the lamp on"),
// or after a word of the tool's own that they end ("lights off in the
// kitchen", "TV off"); the other states when they are the request's verb
// ("lock the back door", "unlock the side gate"). A verb for which no
// parameter or more than one qualifies is left; such a particle is
// reported unmapped, never placed by a later rule.
func (f *filler) applyStates() {
	verb := f.verbIndex()
	for i := range f.toks {
		if !f.free(i) {
			continue
		}
		w := f.toks[i].word
		pair, first, ok := stateOf(w)
		if !ok {
			continue
		}
		if w == "on" || w == "off" {
			if !f.particle(i) {
				continue
			}
		} else if i != verb {
			continue
		}
		if p, v := f.stateTarget(w, pair, first); p != nil && f.try(p, v) {
			f.useTokens(i)
		} else if w == "on" || w == "off" {
			// A state no parameter takes: said, and kept from the rules
			// that place leftover words ("turn the fan off" is no fan
			// named off).
			f.useTokens(i)
			f.moments = append(f.moments, schemas.Unmapped{Text: f.toks[i].word})
		}
	}
	f.openNow(verb)
}

// openNow reads "open" said of the places asked for, not as the
// request's verb ("a pharmacy open now", "any cafés open late?", "which
// bakeries are open"), as true for the one missing boolean parameter
// named for it (open_now, is_open, open); "not open" is left. "now"
// right after it goes with it.
func (f *filler) openNow(verb int) {
	for i := range f.toks {
		if i == verb || !f.free(i) || f.toks[i].word != "open" || i == 0 {
			continue
		}
		if negations[f.toks[i-1].word] {
			return
		}
		var target *property
		for _, p := range f.s.props {
			if p.typ == "boolean" && f.missing(p) && slices.Contains(p.words, "open") {
				if target != nil {
					return
				}
				target = p
			}
		}
		if target == nil || !f.try(target, "true") {
			return
		}
		f.useTokens(i)
		if f.free(i+1) && f.toks[i+1].word == "now" {
			f.useTokens(i + 1)
		}
		return
	}
}

// particle: on or off at token i is a switching verb's particle, or ends
// a word of the tool's own ("lights off").
func (f *filler) particle(i int) bool {
	if i > 0 && switchVerbs[f.toks[i-1].word] && !endsClause(f.toks[i-1].raw) {
		return true // "turn off the lights"
	}
	ends := endsClause(f.toks[i].raw) || i+1 == len(f.toks) || particleFollowers[f.toks[i+1].word]
	if !ends || i == 0 {
		return false
	}
	if f.tool[f.toks[i-1].word] {
		return true // "lights off in the kitchen", "TV off"
	}
	for k := i - 1; k >= 0 && k >= i-6; k-- {
		if endsClause(f.toks[k].raw) {
			break
		}
		if switchVerbs[f.toks[k].word] {
			return true // "switch the living room lamp on"
		}
	}
	return false
}

// stateTarget is the one missing parameter that takes state word w (of
// statePairs[pair], its first state or not) and the value for it: an
// enum holding the word, or a boolean that holds the pair in its name or
// description, true for the state its description writes with true (or,
// said by its name alone, the state it is named for).
func (f *filler) stateTarget(w string, pair int, first bool) (*property, string) {
	var target *property
	var value string
	for _, p := range f.s.props {
		if !f.missing(p) {
			continue
		}
		v := ""
		switch {
		case len(p.enum) > 0:
			for _, e := range p.enum {
				if s, ok := e.(string); ok && sameState(strings.ToLower(s), w, pair, first) {
					v = s
				}
			}
		case p.typ == "boolean":
			if t, ok := boolState(p, pair); ok {
				if t == first {
					v = "true"
				} else {
					v = "false"
				}
			}
		}
		if v == "" {
			continue
		}
		if target != nil {
			return nil, "" // two could take it
		}
		target, value = p, v
	}
	return target, value
}

// boolState says which state of statePairs[pair] a boolean parameter
// means by true: true for the pair's first. Its description says so in a
// part that writes one state with true or false ("true to switch on,
// false to switch off", "Turn on (true) or off (false)"); else its name is
// one of the states ("on", "locked", "enabled").
func boolState(p *property, pair int) (firstIsTrue, ok bool) {
	has := func(words []string, forms []string) bool {
		for _, w := range words {
			for _, s := range forms {
				if w == s {
					return true
				}
			}
		}
		return false
	}
	d := strings.ToLower(p.description)
	for _, sep := range []string{",", ";", " or ", " and ", "."} {
		d = strings.ReplaceAll(d, sep, "|")
	}
	for _, part := range strings.Split(d, "|") {
		words := strings.FieldsFunc(part, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r == '-') })
		t, fa := has(words, []string{"true"}), has(words, []string{"false"})
		a, b := has(words, statePairs[pair][0]), has(words, statePairs[pair][1])
		if t == fa || a == b {
			continue
		}
		return a == t, true
	}
	for side, forms := range statePairs[pair] {
		if has([]string{p.norm}, forms) {
			return side == 0, true
		}
	}
	if pair == 0 && (p.norm == "power" || p.norm == "powered") {
		return true, true
	}
	return false, false
}

// sameState: the enum value e is the state word w or another form of it
// ("closed" for "close", "locked" for "lock"), not just of its side
// ("locked" is not "closed").
func sameState(e, w string, pair int, first bool) bool {
	if e == w {
		return true
	}
	p, f, ok := stateOf(e)
	return ok && p == pair && f == first && (strings.HasPrefix(e, w) || strings.HasPrefix(w, e))
}
