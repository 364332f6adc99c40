package mcpimport

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
)

// Report says what a sync did.
type Report struct {
	Added, Replaced, Unchanged, Removed []string
	// Skipped are server tools that could not become manifests, with why.
	Skipped []string
}

func (r Report) String() string {
	s := fmt.Sprintf("%d added, %d replaced, %d unchanged, %d removed", len(r.Added), len(r.Replaced), len(r.Unchanged), len(r.Removed))
	if len(r.Skipped) > 0 {
		s += fmt.Sprintf(", %d skipped (%s)", len(r.Skipped), strings.Join(r.Skipped, "; "))
	}
	return s
}

// Options of a sync.
type Options struct {
	// Replace lets the server's tools overwrite tools under NAME/ that were
	// not imported from this server.
	Replace bool
}

// Sync makes the registry hold exactly the server's current tools under
// src.Name: new ones added, changed ones replaced, vanished ones removed.
// Nothing is written when a server tool would overwrite a tool this source
// does not own (unless opts.Replace).
func Sync(ctx context.Context, store *registry.Store, src Source, tools []*mcp.Tool, opts Options) (Report, error) {
	var rep Report
	if err := src.Check(); err != nil {
		return rep, err
	}
	var ms []schemas.Manifest
	want := map[string]bool{}
	for _, t := range tools {
		m, err := src.Manifest(t)
		if err != nil {
			rep.Skipped = append(rep.Skipped, err.Error())
			continue
		}
		if want[m.ID] {
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("tool %s listed twice", m.ID))
			continue
		}
		want[m.ID] = true
		ms = append(ms, m)
	}
	existing, err := store.List(ctx)
	if err != nil {
		return rep, err
	}
	var foreign, vanished []string
	for _, m := range existing {
		owned := src.owns(m)
		switch {
		case want[m.ID] && !owned:
			foreign = append(foreign, m.ID)
		case !want[m.ID] && owned:
			vanished = append(vanished, m.ID)
		}
	}
	if len(foreign) > 0 && !opts.Replace {
		return rep, fmt.Errorf("%w: %q are registered but were not imported from %s (use --replace, or another --name)", registry.ErrConflict, foreign, src.Server)
	}
	// Tools this source owns are its to overwrite.
	ir, err := store.Import(ctx, ms, true)
	if err != nil {
		return rep, err
	}
	rep.Added, rep.Replaced, rep.Unchanged = ir.Added, ir.Replaced, ir.Unchanged
	sort.Strings(vanished)
	if len(vanished) > 0 {
		missing, err := store.Remove(ctx, vanished...)
		if err != nil {
			return rep, err
		}
		gone := map[string]bool{}
		for _, id := range missing {
			gone[id] = true
		}
		for _, id := range vanished {
			if !gone[id] {
				rep.Removed = append(rep.Removed, id)
			}
		}
	}
	return rep, nil
}
