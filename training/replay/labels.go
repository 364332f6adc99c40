package replay

import (
	"slices"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/labels"
)

// Label is what the audit says an intent wanted: a tool (the positive
// label) and tools it did not want.
type Label struct {
	Tool      string        `json:"tool,omitempty"`
	Source    labels.Source `json:"source,omitempty"`
	Negatives []string      `json:"negatives,omitempty"`
}

// sourceRank orders the label sources, strongest last, so a feedback label
// wins over a success on the same intent.
var sourceRank = map[labels.Source]int{labels.SourceHistory: 1, labels.SourceSuccess: 2, labels.SourceCorrection: 3, labels.SourceFeedback: 4}

// Labels derives the labels of the recorded intents with training/labels,
// the derivation `toolyard train` learns from, keyed like Intent.Key.
func Labels(records []schemas.AuditRecord, opts labels.Options) map[string]Label {
	out := map[string]Label{}
	for _, ex := range labels.Derive(records, opts) {
		key := IntentKey(ex.Session, ex.IntentID)
		if ex.IntentID == "" {
			key = HistoryKey(ex.Session, ex.Time, ex.Text)
		}
		l := out[key]
		switch {
		case ex.Negative:
			if !slices.Contains(l.Negatives, ex.Tool) {
				l.Negatives = append(l.Negatives, ex.Tool)
			}
		case l.Tool == "" || sourceRank[ex.Source] >= sourceRank[l.Source]:
			l.Tool, l.Source = ex.Tool, ex.Source
		}
		out[key] = l
	}
	return out
}

// Score is how well an outcome served a labelled intent: +1 the wanted
// tool would run, -1 a wrong one would (the label's tool is another, or
// the tool is one the audit says was not wanted), 0 the agent is asked.
func (l Label) Score(o Outcome) int {
	if !o.Ran {
		return 0
	}
	switch {
	case l.Tool != "" && o.Tool == l.Tool:
		return 1
	case l.Tool != "" || slices.Contains(l.Negatives, o.Tool):
		return -1
	}
	return 0
}
