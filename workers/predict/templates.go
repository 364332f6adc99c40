package predict

import (
	"cmp"
	"slices"
	"strings"

	"github.com/toolyard/toolyard/workers/discover"
)

// templatePredictions are made when a marker opens: the tools that the
// words before it, and the tool the session ran last, preceded in the
// history. A tool is predicted only with a phrasing to search for, at
// least minCount examples behind it and a share of its evidence of at
// least minShare.
func (p *Predictor) templatePredictions(s *sessionState) []Prediction {
	t := p.cfg.templates
	if t == nil {
		return nil
	}
	var out []Prediction
	add := func(source, tool string, share float64) {
		text := p.cfg.phrasings[tool]
		if text == "" || slices.ContainsFunc(out, func(q Prediction) bool { return q.Tool == tool }) {
			return
		}
		out = append(out, Prediction{SessionID: s.id, MessageID: s.message, Marker: s.sc.markers - 1,
			Text: text, Source: source, Tool: tool, Confidence: share})
	}
	if cs := t.Next[s.lastTool]; s.lastTool != "" && len(cs) > 0 {
		total := 0
		for _, c := range cs {
			total += c.Count
		}
		if c := cs[0]; c.Count >= p.cfg.minCount && float64(c.Count)/float64(total) >= p.cfg.minShare {
			add(SourceNext, c.Tool, float64(c.Count)/float64(total))
		}
	}
	votes := map[string]int{}
	total := 0
	for _, w := range s.sc.before {
		w = strings.Trim(w, ".,;:!?\"'()[]")
		for _, c := range t.Context[w] {
			votes[c.Tool] += c.Count
			total += c.Count
		}
	}
	if best, n := argmax(votes); best != "" && n >= p.cfg.minCount && float64(n)/float64(total) >= p.cfg.minShare {
		add(SourceContext, best, float64(n)/float64(total))
	}
	return out
}

func argmax(m map[string]int) (string, int) {
	best, n := "", 0
	for k, v := range m {
		if v > n || (v == n && k < best) {
			best, n = k, v
		}
	}
	return best, n
}

// Phrasings picks, for each tool with learned intents, the one to search
// for when the tool is predicted: the one of median length, a typical
// request rather than the shortest or a rambling one.
func Phrasings(u *discover.Usage) map[string]string {
	if u == nil {
		return nil
	}
	by := map[string][]string{}
	for _, in := range u.Intents {
		by[in.Tool] = append(by[in.Tool], in.Text)
	}
	out := make(map[string]string, len(by))
	for tool, ts := range by {
		slices.SortFunc(ts, func(a, b string) int { return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b)) })
		out[tool] = ts[len(ts)/2]
	}
	return out
}
