package fit

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/registry"
)

// The query files the shipped calibrations are fitted on: the MetaTool
// queries and awareness dev sets over MetaTool's tools, the Seal-Tools dev
// set over its tools (the layout of shared/bench).
const (
	SetMetaTool  = "metatool"
	SetAwareness = "awareness"
	SetSealTools = "sealtools"
)

// collection is one registry of the benchmarks and its query files.
type collection struct {
	dir   string
	files []struct{ set, file string }
}

var collections = []collection{
	{SetMetaTool, []struct{ set, file string }{{SetMetaTool, "queries.dev.jsonl"}, {SetAwareness, "awareness.dev.jsonl"}}},
	{SetSealTools, []struct{ set, file string }{{SetSealTools, "queries.dev.jsonl"}}},
}

// NewEngine builds the engine rows are collected with over a registry.
type NewEngine func(tools []schemas.Manifest) (*discover.Engine, error)

// CollectBench collects the rows of every dev set under benchDir (the
// shared/bench layout), each over its own registry. progress, when set, is
// told of each file as it starts.
func CollectBench(ctx context.Context, benchDir string, newEngine NewEngine, progress func(set string, queries int)) ([]Row, error) {
	var rows []Row
	for _, c := range collections {
		tools, err := registry.LoadFile(filepath.Join(benchDir, c.dir, "tools.jsonl"))
		if err != nil {
			return nil, fmt.Errorf("bench %s: %w", c.dir, err)
		}
		e, err := newEngine(tools)
		if err != nil {
			return nil, fmt.Errorf("bench %s: engine: %w", c.dir, err)
		}
		for _, f := range c.files {
			qs, err := eval.LoadQueries(filepath.Join(benchDir, c.dir, f.file))
			if err != nil {
				_ = e.Close()
				return nil, fmt.Errorf("bench %s: %w", c.dir, err)
			}
			if progress != nil {
				progress(f.set, len(qs))
			}
			rs, err := Collect(ctx, e, f.set, qs)
			if err != nil {
				_ = e.Close()
				return nil, err
			}
			rows = append(rows, rs...)
		}
		_ = e.Close()
	}
	return rows, nil
}
