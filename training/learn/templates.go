package learn

import (
	"cmp"
	"slices"
	"strings"

	"github.com/toolyard/toolyard/training/labels"
	"github.com/toolyard/toolyard/workers/models/bundle"
)

// maxPerKey bounds each template list: the predictor reads the head.
const maxPerKey = 10

// templatesOf counts, over labelled examples in time order, which tools
// followed each tool in a session (Next) and which tools' intents each
// conversation word preceded (Context): the statistics the predictor reads.
func templatesOf(es []labels.Example) *bundle.Templates {
	next := map[string]map[string]int{}
	ctx := map[string]map[string]int{}
	last := map[string]string{}
	inc := func(m map[string]map[string]int, k, tool string) {
		if m[k] == nil {
			m[k] = map[string]int{}
		}
		m[k][tool]++
	}
	for _, e := range es {
		if prev, ok := last[e.Session]; ok && prev != e.Tool {
			inc(next, prev, e.Tool)
		}
		last[e.Session] = e.Tool
		seen := map[string]bool{}
		for _, w := range strings.Fields(strings.ToLower(e.Conversation)) {
			w = strings.Trim(w, ".,;:!?\"'()[]")
			if len(w) > 3 && !seen[w] {
				seen[w] = true
				inc(ctx, w, e.Tool)
			}
		}
	}
	return &bundle.Templates{Format: bundle.TemplatesFormat, Next: top(next), Context: top(ctx)}
}

func top(m map[string]map[string]int) map[string][]bundle.Count {
	out := make(map[string][]bundle.Count, len(m))
	for k, tools := range m {
		cs := make([]bundle.Count, 0, len(tools))
		for t, n := range tools {
			cs = append(cs, bundle.Count{Tool: t, Count: n})
		}
		slices.SortFunc(cs, func(a, b bundle.Count) int {
			return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Tool, b.Tool))
		})
		out[k] = cs[:min(len(cs), maxPerKey)]
	}
	return out
}
