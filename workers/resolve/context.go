package resolve

import (
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// run applies the rules of the table in order. Without guesses, only the
// rules that read a value written for a parameter apply, not those that
// place leftovers (rule.guess): for the context around an intent, whose
// leftovers are about other things.
func (f *filler) run(rs []rule, free *property, guesses bool) {
	for _, r := range rs {
		if r.guess && !guesses {
			continue
		}
		r.apply(f, free)
	}
}

// contextMax bounds how much context is read on each side: the sentences
// next to the marker, where its missing values are written.
const contextMax = 300

// contextTexts are the places an intent's missing values may be written,
// nearest first: the text just before the marker ("the weather in Paris
// — [TOOL: forecast]"), just after it, then the last user message.
func contextTexts(in schemas.Intent) []string {
	var out []string
	if b := strings.TrimSpace(in.ContextBefore); b != "" {
		if len(b) > contextMax {
			b = b[len(b)-contextMax:]
		}
		out = append(out, b)
	}
	if a := strings.TrimSpace(in.ContextAfter); a != "" {
		if len(a) > contextMax {
			a = a[:contextMax]
		}
		out = append(out, a)
	}
	for i := len(in.Conversation) - 1; i >= 0; i-- {
		if m := in.Conversation[i]; m.Role == "user" && strings.TrimSpace(m.Content) != "" {
			out = append(out, m.Content)
			break
		}
	}
	return out
}

// lacksRequired: a required parameter has no value yet.
func (f *filler) lacksRequired() bool {
	for _, p := range f.s.props {
		if p.required && f.missing(p) && !p.hasDefault {
			return true
		}
	}
	return false
}

// seed makes g fill only what f still lacks.
func (g *filler) seed(f *filler) {
	g.zone = f.zone
	for name := range f.given {
		g.given[name] = true
	}
	for name := range f.failed {
		g.failed[name] = true
	}
}

// adoptRequired takes from g the required values f lacks. A value in the
// context that does not coerce is not the agent's mistake in this intent,
// so g's problems are dropped.
func (f *filler) adoptRequired(g *filler) {
	for _, p := range f.s.props {
		if p.required && f.missing(p) && g.given[p.name] {
			f.args[p.name] = g.args[p.name]
			f.given[p.name] = true
		}
	}
}
