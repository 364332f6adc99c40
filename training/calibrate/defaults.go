package calibrate

import (
	"os"
	"path/filepath"

	"github.com/toolyard/toolyard/workers/discover"
)

// SampleTools and SampleRequests are the sample registry and the request
// set written for it, relative to the project root; testdata holds two more
// small registries of other styles with their requests (a personal
// assistant's, terse and rich descriptions mixed; a data and finance API's,
// camelCase functions without keywords).
const (
	SampleTools    = "ops/sample/tools.jsonl"
	SampleRequests = "training/eval/testdata/sample_requests.jsonl"
	testdata       = "training/eval/testdata"
)

// DefaultCollections are the small registries' request sets and, when bench holds them, the
// MetaTool and Seal-Tools dev sets; missing is told each one left out.
func DefaultCollections(bench string, missing func(string)) []Collection {
	all := []Collection{
		{Name: "sample", Tools: SampleTools, Queries: SampleRequests},
		{Name: "home", Tools: filepath.Join(testdata, "home_tools.jsonl"), Queries: filepath.Join(testdata, "home_requests.jsonl")},
		{Name: "data", Tools: filepath.Join(testdata, "data_tools.jsonl"), Queries: filepath.Join(testdata, "data_requests.jsonl")},
		{Name: "metatool", Tools: filepath.Join(bench, "metatool", "tools.jsonl"), Queries: filepath.Join(bench, "metatool", "queries.dev.jsonl")},
		// The awareness set asks the same registry whether a tool is needed
		// at all: one collection with the queries, left out together.
		{Name: "metatool", Tools: filepath.Join(bench, "metatool", "tools.jsonl"), Queries: filepath.Join(bench, "metatool", "awareness.dev.jsonl")},
		{Name: "sealtools", Tools: filepath.Join(bench, "sealtools", "tools.jsonl"), Queries: filepath.Join(bench, "sealtools", "queries.dev.jsonl")},
	}
	var out []Collection
	for _, c := range all {
		if !exists(c.Tools) || !exists(c.Queries) {
			if missing != nil {
				missing(c.Name)
			}
			continue
		}
		out = append(out, c)
	}
	return out
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// DefaultSpec is the signals the shipped model weighs.
func DefaultSpec() Spec {
	c := discover.DefaultCalibration()
	s := Spec{Version: "fitted", Right: c.Features, L2: 1e-3}
	// The shipped model is the default spec fitted on the default collections.
	if c.Need != nil {
		s.Need = c.Need.Features
	}
	return s
}
