package calibrate

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/training/fit"
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

// Row is one request's top candidate (fit.Row: its signals by name,
// whether some tool is right, whether the top one is); its Set names the
// collection it comes from.
type Row = fit.Row

// Rows ranks every query of c with an engine built by newEngine over c's
// registry, on every core, and returns the top candidate's row for each.
// A request with no gold tool needs none, whatever its label says.
func Rows(ctx context.Context, c Collection, newEngine func([]schemas.Manifest) (*discover.Engine, error)) ([]Row, error) {
	tools, err := registry.LoadFile(c.Tools)
	if err != nil {
		return nil, fmt.Errorf("collection %s: %w", c.Name, err)
	}
	qs, err := eval.LoadQueries(c.Queries)
	if err != nil {
		return nil, fmt.Errorf("collection %s: %w", c.Name, err)
	}
	for i := range qs {
		if len(qs[i].GoldToolIDs) == 0 {
			no := false
			qs[i].NeedsTool = &no
		}
	}
	e, err := newEngine(tools)
	if err != nil {
		return nil, fmt.Errorf("collection %s: %w", c.Name, err)
	}
	defer e.Close()
	if e.Mode() == discover.ModeKeyword {
		return nil, fmt.Errorf("collection %s: discovery has no vectors (keyword-only); calibration needs the hybrid engine ('make embeddings')", c.Name)
	}
	return fit.Collect(ctx, e, c.Name, qs)
}
