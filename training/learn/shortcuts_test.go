package learn

import (
	"fmt"
	"testing"

	"github.com/toolyard/toolyard/training/labels"
	"github.com/toolyard/toolyard/workers/models/bundle"
)

// ex is one label: text resolved to tool in session (negative: judged wrong).
type ex struct {
	text, tool, session string
	negative            bool
}

func examples(xs ...ex) []labels.Example {
	out := make([]labels.Example, len(xs))
	for i, x := range xs {
		out[i] = labels.Example{Text: x.text, Tool: x.tool, Session: x.session, Negative: x.negative, Source: labels.SourceSuccess}
	}
	return out
}

// times repeats one label over sessions s0…s(n-1), k times each.
func times(text, tool string, sessions, each int) []ex {
	var out []ex
	for s := range sessions {
		for range each {
			out = append(out, ex{text, tool, fmt.Sprintf("s%d", s), false})
		}
	}
	return out
}

func TestShortcutRule(t *testing.T) {
	const phr = "archive the old logs"
	cat := func(xss ...[]ex) []ex {
		var out []ex
		for _, xs := range xss {
			out = append(out, xs...)
		}
		return out
	}
	cases := []struct {
		name  string
		in    []ex
		rule  ShortcutRule
		guard labels.Guard
		want  *bundle.Shortcut // for phr; nil: none
	}{
		{"repeated across sessions", times(phr, "files/archive", 3, 1), ShortcutRule{}, labels.Guard{},
			&bundle.Shortcut{Tool: "files/archive", Count: 3, Sessions: 3, Share: 1}},
		{"phrasing normalised", []ex{{"Archive the old logs.", "files/archive", "a", false}, {"archive  the OLD logs", "files/archive", "b", false}, {phr + "!", "files/archive", "c", false}},
			ShortcutRule{}, labels.Guard{}, &bundle.Shortcut{Tool: "files/archive", Count: 3, Sessions: 3, Share: 1}},
		{"too few", times(phr, "files/archive", 2, 1), ShortcutRule{}, labels.Guard{}, nil},
		{"one session, however often", times(phr, "files/archive", 1, 20), ShortcutRule{}, labels.Guard{}, nil},
		{"per-session cap counts", times(phr, "files/archive", 2, 5), ShortcutRule{MinCount: 7}, labels.Guard{PerSession: 3}, nil},
		{"per-session cap still enough", times(phr, "files/archive", 2, 5), ShortcutRule{MinCount: 6}, labels.Guard{PerSession: 3},
			&bundle.Shortcut{Tool: "files/archive", Count: 6, Sessions: 2, Share: 1}},
		{"more sessions asked", times(phr, "files/archive", 3, 1), ShortcutRule{}, labels.Guard{MinSessions: 4}, nil},
		{"mixed tools", cat(times(phr, "files/archive", 4, 1), times(phr, "files/compress", 2, 1)), ShortcutRule{}, labels.Guard{}, nil},
		{"mostly one tool", cat(times(phr, "files/archive", 9, 1), times(phr, "files/compress", 1, 1)), ShortcutRule{}, labels.Guard{},
			&bundle.Shortcut{Tool: "files/archive", Count: 9, Sessions: 9, Share: 0.9}},
		{"lower share allowed", cat(times(phr, "files/archive", 4, 1), times(phr, "files/compress", 2, 1)), ShortcutRule{MinShare: 0.6}, labels.Guard{},
			&bundle.Shortcut{Tool: "files/archive", Count: 4, Sessions: 4, Share: 4.0 / 6}},
		{"a tie is mixed", cat(times(phr, "files/archive", 3, 1), times(phr, "files/compress", 3, 1)), ShortcutRule{MinShare: 0.5}, labels.Guard{}, nil},
		{"judged wrong counts against", cat(times(phr, "files/archive", 4, 1), []ex{{phr, "files/archive", "x", true}}), ShortcutRule{}, labels.Guard{}, nil},
		{"another phrasing is not this one", times("archive the new logs", "files/archive", 5, 1), ShortcutRule{}, labels.Guard{}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Shortcuts(examples(c.in...), c.rule, c.guard)
			s, ok := got[phr]
			switch {
			case c.want == nil && ok:
				t.Fatalf("shortcut %+v, want none", s)
			case c.want != nil && !ok:
				t.Fatalf("no shortcut, want %+v (got %v)", *c.want, got)
			case c.want != nil && s != *c.want:
				t.Fatalf("shortcut %+v, want %+v", s, *c.want)
			}
		})
	}
}
