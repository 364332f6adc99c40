package calibrate

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/registry"
)

// Collection is a registry and requests against it, labelled with the
// right tool (or none).
type Collection struct {
	Name    string
	Tools   string // registry file
	Queries string // query file; needs_tool false or no gold tool: no tool is right
}

// ParseCollection reads NAME=TOOLS:QUERIES.
func ParseCollection(s string) (Collection, error) {
	name, files, ok := strings.Cut(s, "=")
	tools, queries, ok2 := strings.Cut(files, ":")
	if !ok || !ok2 || name == "" || tools == "" || queries == "" {
		return Collection{}, fmt.Errorf("collection %q: want NAME=TOOLS.jsonl:QUERIES.jsonl", s)
	}
	return Collection{Name: name, Tools: tools, Queries: queries}, nil
}

// Row is one request's top candidate: the evidence routing acts on.
type Row struct {
	Collection string
	QueryID    string
	// Signals are the top candidate's signals, by name (discover.FeatureNames).
	Signals map[string]float64
	// NeedsTool is whether some tool of the registry is right; Right whether
	// the top candidate is one.
	NeedsTool, Right bool
}

// Rows ranks every query of c with an engine built by newEngine over c's
// registry and returns the top candidate's row for each. Queries the engine
// returns nothing for are rows with every signal 0 (nothing to activate).
func Rows(ctx context.Context, c Collection, newEngine func([]schemas.Manifest) (*discover.Engine, error), progress func(done, total int)) ([]Row, error) {
	tools, err := registry.LoadFile(c.Tools)
	if err != nil {
		return nil, fmt.Errorf("collection %s: %w", c.Name, err)
	}
	qs, err := eval.LoadQueries(c.Queries)
	if err != nil {
		return nil, fmt.Errorf("collection %s: %w", c.Name, err)
	}
	e, err := newEngine(tools)
	if err != nil {
		return nil, fmt.Errorf("collection %s: %w", c.Name, err)
	}
	defer e.Close()
	rows := make([]Row, 0, len(qs))
	for i, q := range qs {
		cs, err := e.Explain(ctx, q.Query, 10)
		if err != nil {
			return nil, fmt.Errorf("collection %s: query %s: %w", c.Name, q.ID, err)
		}
		if cs == nil && len(tools) > 0 {
			return nil, fmt.Errorf("collection %s: discovery has no vectors (keyword-only); calibration needs the hybrid engine ('make embeddings')", c.Name)
		}
		needs := len(q.GoldToolIDs) > 0 && (q.NeedsTool == nil || *q.NeedsTool)
		r := Row{Collection: c.Name, QueryID: q.ID, NeedsTool: needs, Signals: map[string]float64{}}
		if len(cs) > 0 {
			r.Signals = cs[0].Signals
			for _, g := range q.GoldToolIDs {
				r.Right = r.Right || (needs && g == cs[0].ToolID)
			}
		}
		rows = append(rows, r)
		if progress != nil && ((i+1)%500 == 0 || i+1 == len(qs)) {
			progress(i+1, len(qs))
		}
	}
	return rows, nil
}
