package replay

import (
	"cmp"
	"container/heap"
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
	Workers       int     `json:"workers"` // this process's; 0 for a sharded replay
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
	a := NewAccumulator()
	a.AddRows(rows, lbl)
	return a.Summary(skipped, base, cand)
}

// Accumulator builds a replay's summary and its plots' data from rows
// given one at a time, in memory that does not grow with the number of
// intents: counts, confidence bins, sweep counters, a bounded sample of
// latencies, and the earliest changed intents. Rows may come in any order
// (parts, shards): what is kept does not depend on it, and the lists keep
// the earliest intents by time (then key). It is not safe for concurrent
// use.
type Accumulator struct {
	intents, labelled        int
	changedTier, changedTool int
	gained, lost             int
	transitions              map[string]map[string]int
	pairs                    map[[2]string]*pairStats
	effects                  map[string]*ToolEffect
	changes                  changeHeap
	omitted                  int
	base, cand               sideStats
}

// pairStats is one baseline → candidate top-tool pair so far.
type pairStats struct {
	count    int
	examples []Intent // the earliest, at most maxExamples
}

// NewAccumulator is an empty accumulator.
func NewAccumulator() *Accumulator {
	return &Accumulator{transitions: map[string]map[string]int{}, pairs: map[[2]string]*pairStats{},
		effects: map[string]*ToolEffect{}, base: newSideStats(), cand: newSideStats()}
}

// AddRows adds rows, each with its label from lbl.
func (a *Accumulator) AddRows(rows []Row, lbl map[string]Label) {
	for _, r := range rows {
		a.Add(r, lbl[r.Intent.Key])
	}
}

// Add counts one replayed intent; l is its label (zero when none).
func (a *Accumulator) Add(r Row, l Label) {
	a.intents++
	b, c := r.Baseline, r.Candidate
	labelled := l.Tool != ""
	if labelled {
		a.labelled++
	}
	a.base.add(b, l, labelled)
	a.cand.add(c, l, labelled)
	if a.transitions[b.Tier] == nil {
		a.transitions[b.Tier] = map[string]int{}
	}
	a.transitions[b.Tier][c.Tier]++
	// A tool change is discovery ranking another tool first; a tier
	// change (which may hand on no tool at all) is counted apart.
	tierChanged, toolChanged := b.Tier != c.Tier, b.Top != c.Top
	if tierChanged {
		a.changedTier++
	}
	if toolChanged {
		a.changedTool++
		k := [2]string{b.Top, c.Top}
		p := a.pairs[k]
		if p == nil {
			p = &pairStats{}
			a.pairs[k] = p
		}
		p.count++
		p.examples = keepEarliest(p.examples, r.Intent, maxExamples)
	}
	effect := ""
	switch bs, cs := l.Score(b), l.Score(c); {
	case cs > bs:
		effect = "gained"
		a.gained++
	case cs < bs:
		effect = "lost"
		a.lost++
	}
	if effect != "" {
		tool := cmp.Or(l.Tool, b.Tool, c.Tool)
		e := a.effects[tool]
		if e == nil {
			e = &ToolEffect{Tool: tool}
			a.effects[tool] = e
		}
		if effect == "gained" {
			e.Gained++
		} else {
			e.Lost++
		}
	}
	if !tierChanged && !toolChanged && effect == "" {
		return
	}
	ch := Change{Session: r.Intent.Session, IntentID: r.Intent.IntentID, Text: r.Intent.Text,
		Label: l.Tool, Baseline: slim(b), Candidate: slim(c), Effect: effect}
	if dropped := a.changes.keep(changed{at: r.Intent, change: ch}, MaxChanges); dropped {
		a.omitted++
	}
}

// Summary is the summary of the rows added so far. base and cand describe
// the sides (their Metrics are filled in here).
func (a *Accumulator) Summary(skipped Skipped, base, cand SideInfo) Summary {
	s := Summary{Intents: a.intents, Skipped: skipped, Labelled: a.labelled, ChangedTier: a.changedTier, ChangedTool: a.changedTool,
		Gained: a.gained, Lost: a.lost, Baseline: base, Candidate: cand, Transitions: map[string]map[string]int{}, ChangesOmitted: a.omitted}
	if s.Skipped == nil {
		s.Skipped = Skipped{}
	}
	s.Baseline.Metrics, s.Candidate.Metrics = a.base.metrics(), a.cand.metrics()
	for bt, m := range a.transitions {
		s.Transitions[bt] = maps.Clone(m)
	}
	for k, p := range a.pairs {
		tc := ToolChange{From: k[0], To: k[1], Count: p.count}
		for _, in := range p.examples {
			tc.Examples = append(tc.Examples, in.Text)
		}
		s.ToolChanges = append(s.ToolChanges, tc)
	}
	slices.SortFunc(s.ToolChanges, func(a, b ToolChange) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To))
	})
	if len(s.ToolChanges) > maxToolChanges {
		s.ToolChanges = s.ToolChanges[:maxToolChanges]
	}
	for _, k := range slices.Sorted(maps.Keys(a.effects)) {
		s.PerTool = append(s.PerTool, *a.effects[k])
	}
	slices.SortStableFunc(s.PerTool, func(a, b ToolEffect) int {
		return cmp.Compare(b.Gained+b.Lost, a.Gained+a.Lost)
	})
	for _, c := range a.changes.inOrder() {
		s.Changes = append(s.Changes, c.change)
	}
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

// earlier orders intents by time, then key: the order lists keep
// whatever order the rows came in.
func earlier(a, b Intent) int { return cmp.Or(a.Time.Compare(b.Time), cmp.Compare(a.Key, b.Key)) }

// keepEarliest inserts in into the sorted list, keeping its n earliest.
func keepEarliest(list []Intent, in Intent, n int) []Intent {
	i, _ := slices.BinarySearchFunc(list, in, earlier)
	if i >= n {
		return list
	}
	list = slices.Insert(list, i, in)
	return list[:min(len(list), n)]
}

// changed is a change and the intent it is about (its place in time).
type changed struct {
	at     Intent
	change Change
}

// changeHeap keeps the earliest changes: a max-heap on time, so the
// latest kept is the one a newer, earlier change pushes out.
type changeHeap []changed

func (h changeHeap) Len() int           { return len(h) }
func (h changeHeap) Less(i, j int) bool { return earlier(h[i].at, h[j].at) > 0 }
func (h changeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *changeHeap) Push(x any)        { *h = append(*h, x.(changed)) }
func (h *changeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// keep adds c, keeping the n earliest; dropped says one change (c or a
// later one) is no longer listed.
func (h *changeHeap) keep(c changed, n int) (dropped bool) {
	if h.Len() < n {
		heap.Push(h, c)
		return false
	}
	if n == 0 || earlier(c.at, (*h)[0].at) >= 0 {
		return true
	}
	(*h)[0] = c
	heap.Fix(h, 0)
	return true
}

// inOrder is the kept changes, earliest first.
func (h changeHeap) inOrder() []changed {
	out := slices.Clone(h)
	slices.SortFunc(out, func(a, b changed) int { return earlier(a.at, b.at) })
	return out
}

// slim is an outcome without its latency, which changes on every run and
// is not a change.
func slim(o Outcome) Outcome {
	o.LatencyMS = nil
	return o
}

// Intents is how many rows were added.
func (a *Accumulator) Intents() int { return a.intents }
