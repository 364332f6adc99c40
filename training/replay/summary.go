package replay

import (
	"cmp"
	"maps"
	"slices"

	"github.com/toolyard/toolyard/workers/route"
)

// SideInfo says what a side was and how it did.
type SideInfo struct {
	// Source is "recorded" (the audit's own decisions) or what configured
	// the side (files, model).
	Source     string            `json:"source"`
	Settings   map[string]any    `json:"settings,omitempty"`
	Thresholds *route.Thresholds `json:"thresholds,omitempty"`
	Metrics    Metrics           `json:"metrics"`
}

// Change is one intent whose tier or tool changed.
type Change struct {
	Session   string  `json:"session"`
	IntentID  string  `json:"intent_id,omitempty"`
	Text      string  `json:"text"`
	Label     string  `json:"label,omitempty"`
	Baseline  Outcome `json:"baseline"`
	Candidate Outcome `json:"candidate"`
	// Effect is "gained" or "lost" when the label says which side served
	// the intent better, else empty.
	Effect string `json:"effect,omitempty"`
}

// ToolChange is one pair of top tools, baseline → candidate, and how often.
type ToolChange struct {
	From     string   `json:"from"`
	To       string   `json:"to"`
	Count    int      `json:"count"`
	Examples []string `json:"examples"`
}

// ToolEffect is how many labelled intents of one tool (its label) the
// candidate gained and lost.
type ToolEffect struct {
	Tool   string `json:"tool"`
	Gained int    `json:"gained"`
	Lost   int    `json:"lost"`
}

// Summary is the report's figures (summary.json).
type Summary struct {
	Intents     int                       `json:"intents"`
	Skipped     Skipped                   `json:"skipped"`
	Labelled    int                       `json:"labelled"`
	ChangedTier int                       `json:"changed_tier"`
	ChangedTool int                       `json:"changed_tool"`
	Gained      int                       `json:"gained"`
	Lost        int                       `json:"lost"`
	Baseline    SideInfo                  `json:"baseline"`
	Candidate   SideInfo                  `json:"candidate"`
	Transitions map[string]map[string]int `json:"tier_transitions"`
	ToolChanges []ToolChange              `json:"tool_changes"`
	PerTool     []ToolEffect              `json:"per_tool"`
	Changes     []Change                  `json:"changes"`
	// ChangesOmitted counts the changed intents beyond MaxChanges.
	ChangesOmitted int `json:"changes_omitted"`
	// Throughput is the replay's speed.
	Throughput Throughput `json:"throughput"`
}

// Throughput is how fast the intents were replayed.
type Throughput struct {
	Seconds       float64 `json:"seconds"`
	IntentsPerSec float64 `json:"intents_per_s"`
	Workers       int     `json:"workers"`
}

// Report limits.
const (
	// MaxChanges bounds the changed intents listed in summary.json.
	MaxChanges = 500
	// maxToolChanges and maxExamples bound the top-tool changes.
	maxToolChanges = 20
	maxExamples    = 3
)

// Summarize builds the summary of replayed rows. base and cand describe
// the sides (their Metrics are filled in here).
func Summarize(rows []Row, lbl map[string]Label, skipped Skipped, base, cand SideInfo) Summary {
	s := Summary{Intents: len(rows), Skipped: skipped, Transitions: map[string]map[string]int{}, Baseline: base, Candidate: cand}
	if s.Skipped == nil {
		s.Skipped = Skipped{}
	}
	s.Baseline.Metrics = Measure(rows, lbl, baselineOf)
	s.Candidate.Metrics = Measure(rows, lbl, candidateOf)
	s.Labelled = s.Candidate.Metrics.Labelled
	pairs := map[[2]string]*ToolChange{}
	effects := map[string]*ToolEffect{}
	for _, r := range rows {
		b, c := r.Baseline, r.Candidate
		if s.Transitions[b.Tier] == nil {
			s.Transitions[b.Tier] = map[string]int{}
		}
		s.Transitions[b.Tier][c.Tier]++
		// A tool change is discovery ranking another tool first; a tier
		// change (which may hand on no tool at all) is counted apart.
		tierChanged, toolChanged := b.Tier != c.Tier, b.Top != c.Top
		if tierChanged {
			s.ChangedTier++
		}
		if toolChanged {
			s.ChangedTool++
			k := [2]string{b.Top, c.Top}
			p := pairs[k]
			if p == nil {
				p = &ToolChange{From: b.Top, To: c.Top}
				pairs[k] = p
			}
			p.Count++
			if len(p.Examples) < maxExamples {
				p.Examples = append(p.Examples, r.Intent.Text)
			}
		}
		l := lbl[r.Intent.Key]
		effect := ""
		switch bs, cs := l.Score(b), l.Score(c); {
		case cs > bs:
			effect = "gained"
			s.Gained++
		case cs < bs:
			effect = "lost"
			s.Lost++
		}
		if effect != "" {
			tool := cmp.Or(l.Tool, b.Tool, c.Tool)
			e := effects[tool]
			if e == nil {
				e = &ToolEffect{Tool: tool}
				effects[tool] = e
			}
			if effect == "gained" {
				e.Gained++
			} else {
				e.Lost++
			}
		}
		if !tierChanged && !toolChanged && effect == "" {
			continue
		}
		if len(s.Changes) == MaxChanges {
			s.ChangesOmitted++
			continue
		}
		s.Changes = append(s.Changes, Change{Session: r.Intent.Session, IntentID: r.Intent.IntentID, Text: r.Intent.Text,
			Label: l.Tool, Baseline: slim(b), Candidate: slim(c), Effect: effect})
	}
	for _, p := range pairs {
		s.ToolChanges = append(s.ToolChanges, *p)
	}
	slices.SortFunc(s.ToolChanges, func(a, b ToolChange) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To))
	})
	if len(s.ToolChanges) > maxToolChanges {
		s.ToolChanges = s.ToolChanges[:maxToolChanges]
	}
	for _, k := range slices.Sorted(maps.Keys(effects)) {
		s.PerTool = append(s.PerTool, *effects[k])
	}
	slices.SortStableFunc(s.PerTool, func(a, b ToolEffect) int {
		return cmp.Compare(b.Gained+b.Lost, a.Gained+a.Lost)
	})
	// Empty lists, not null: readers index them without a nil check.
	if s.Changes == nil {
		s.Changes = []Change{}
	}
	if s.ToolChanges == nil {
		s.ToolChanges = []ToolChange{}
	}
	if s.PerTool == nil {
		s.PerTool = []ToolEffect{}
	}
	return s
}

func baselineOf(r Row) Outcome  { return r.Baseline }
func candidateOf(r Row) Outcome { return r.Candidate }

// slim is an outcome without its latency, which changes on every run and
// is not a change.
func slim(o Outcome) Outcome {
	o.LatencyMS = nil
	return o
}
