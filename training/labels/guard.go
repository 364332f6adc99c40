package labels

import "slices"

// Guard keeps one session or one source from dominating what is learned
// about a tool: an attacker who can publish as one agent should not be able
// to rewrite a tool's learned text, and one chatty session should not
// drown the rest.
type Guard struct {
	// PerSession caps the examples one session gives one tool (default 3).
	PerSession int
	// MinSessions is how many distinct sessions must have labelled a tool
	// before any of its examples count (default 2).
	MinSessions int
}

// WithDefaults returns g with its unset limits at their defaults.
func (g Guard) WithDefaults() Guard {
	if g.PerSession <= 0 {
		g.PerSession = 3
	}
	if g.MinSessions <= 0 {
		g.MinSessions = 2
	}
	return g
}

// Stats says what the guard kept and dropped.
type Stats struct {
	Kept, CappedPerSession, TooFewSessions int
}

// Apply returns the positive examples that pass the guard, in their order,
// and what it dropped. Negatives pass through unguarded: they only ever
// lower a tool's evidence.
func (g Guard) Apply(examples []Example) ([]Example, Stats) {
	g = g.WithDefaults()
	var st Stats
	type key struct{ tool, session string }
	count := map[key]int{}
	sessions := map[string]map[string]bool{}
	keep := make([]bool, len(examples))
	for i, e := range examples {
		if e.Negative {
			keep[i] = true
			continue
		}
		k := key{e.Tool, e.Session}
		if count[k] >= g.PerSession {
			st.CappedPerSession++
			continue
		}
		count[k]++
		keep[i] = true
		if sessions[e.Tool] == nil {
			sessions[e.Tool] = map[string]bool{}
		}
		sessions[e.Tool][e.Session] = true
	}
	out := make([]Example, 0, len(examples))
	for i, e := range examples {
		if !keep[i] {
			continue
		}
		if !e.Negative && len(sessions[e.Tool]) < g.MinSessions {
			st.TooFewSessions++
			continue
		}
		out = append(out, e)
	}
	st.Kept = len(out)
	return slices.Clip(out), st
}
