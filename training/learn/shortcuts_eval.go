package learn

import (
	"slices"

	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/workers/shortcut"
)

// ShortcutFigures say what learned shortcuts do for a query set: how many
// queries get a hint, and how often the hinted tool is a gold tool.
type ShortcutFigures struct {
	Shortcuts int `json:"shortcuts"`
	Queries   int `json:"queries"`
	Hinted    int `json:"hinted"`
	Right     int `json:"hinted_right"`
	// Coverage is Hinted/Queries; Precision is Right/Hinted (0 when no
	// query was hinted).
	Coverage  float64 `json:"coverage"`
	Precision float64 `json:"precision"`
}

// EvaluateShortcuts looks every query up in the table as the discover
// stage does.
func EvaluateShortcuts(t *shortcut.Table, qs []eval.Query) ShortcutFigures {
	f := ShortcutFigures{Shortcuts: t.Len(), Queries: len(qs)}
	for _, q := range qs {
		h := t.Hint(q.Query)
		if h == nil {
			continue
		}
		f.Hinted++
		if slices.Contains(q.GoldToolIDs, h.ToolID) {
			f.Right++
		}
	}
	if f.Queries > 0 {
		f.Coverage = float64(f.Hinted) / float64(f.Queries)
	}
	if f.Hinted > 0 {
		f.Precision = float64(f.Right) / float64(f.Hinted)
	}
	return f
}
