package calibrate

import "path/filepath"

// heldOut holds request sets written by sessions that saw neither the
// calibration work nor the fitted collections (its README says how each
// was written). Nothing fits on them: they measure the shipped model on
// registries and phrasing it never saw.
const heldOut = "training/eval/testdata/holdout"

// HeldOutCollections are the held-out sets, relative to the project root:
// the sample registry with other requests, and four registries of other
// domains and naming styles with requests written for them.
func HeldOutCollections() []Collection {
	set := func(name, tools string) Collection {
		return Collection{Name: "holdout-" + name, Tools: tools, Queries: filepath.Join(heldOut, name+"_requests.jsonl")}
	}
	own := func(name string) Collection { return set(name, filepath.Join(heldOut, name+"_tools.jsonl")) }
	return []Collection{set("sample", SampleTools), own("ops"), own("travel"), own("office"), own("study")}
}
