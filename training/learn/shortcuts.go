package learn

import (
	"github.com/toolyard/toolyard/training/labels"
	"github.com/toolyard/toolyard/workers/models/bundle"
	"github.com/toolyard/toolyard/workers/shortcut"
)

// ShortcutRule decides which intent phrasings (shortcut.Normalize) become
// learned shortcuts. A phrasing gets one for a tool when, over the labelled
// history:
//   - at least MinCount of its labels name the tool, each session counting
//     at most the guard's PerSession of them (one chatty or hostile agent
//     cannot make a shortcut);
//   - those labels come from at least the guard's MinSessions distinct
//     sessions;
//   - they are at least MinShare of all the phrasing's labels, where a
//     label for another tool, and a "wrong" judgement of this one, count
//     against it: a phrasing that resolves to mixed tools gets no shortcut.
//
// A hint tells the agent to skip discovery, so the rule asks for the same
// evidence the poisoning guard asks of a learned intent, and more.
type ShortcutRule struct {
	MinCount int     // default 3
	MinShare float64 // default 0.9
}

func (r ShortcutRule) withDefaults() ShortcutRule {
	if r.MinCount <= 0 {
		r.MinCount = 3
	}
	if r.MinShare <= 0 || r.MinShare > 1 {
		r.MinShare = 0.9
	}
	return r
}

// Shortcuts applies the rule (with the guard's per-session cap and
// distinct-session minimum) to labelled examples, negatives included.
func Shortcuts(es []labels.Example, r ShortcutRule, g labels.Guard) map[string]bundle.Shortcut {
	r = r.withDefaults()
	if g.PerSession <= 0 {
		g.PerSession = 3
	}
	if g.MinSessions <= 0 {
		g.MinSessions = 2
	}
	type phrasing struct {
		count    map[string]int
		sessions map[string]map[string]int // tool → session → labels counted
		against  int
	}
	by := map[string]*phrasing{}
	for _, e := range es {
		key := shortcut.Normalize(e.Text)
		if key == "" || e.Tool == "" {
			continue
		}
		p := by[key]
		if p == nil {
			p = &phrasing{count: map[string]int{}, sessions: map[string]map[string]int{}}
			by[key] = p
		}
		if e.Negative {
			p.against++ // a "wrong" judgement counts against the phrasing
			continue
		}
		if p.sessions[e.Tool] == nil {
			p.sessions[e.Tool] = map[string]int{}
		}
		if p.sessions[e.Tool][e.Session] >= g.PerSession {
			continue
		}
		p.sessions[e.Tool][e.Session]++
		p.count[e.Tool]++
	}
	out := map[string]bundle.Shortcut{}
	for key, p := range by {
		total := p.against
		best, n, tie := "", 0, false
		for tool, c := range p.count {
			total += c
			switch {
			case c > n:
				best, n, tie = tool, c, false
			case c == n && c > 0:
				tie = true
			}
		}
		if best == "" || tie || n < r.MinCount || total == 0 {
			continue
		}
		share := float64(n) / float64(total)
		sessions := len(p.sessions[best])
		if sessions < g.MinSessions || share < r.MinShare {
			continue
		}
		out[key] = bundle.Shortcut{Tool: best, Count: n, Sessions: sessions, Share: share}
	}
	return out
}
