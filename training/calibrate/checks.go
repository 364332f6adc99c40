package calibrate

import "path/filepath"

// checks holds request sets written to check one kind of request each,
// never fitted on (docs/benchmarks.md says what each holds and when it
// was written).
const checks = "training/eval/testdata"

// CheckCollections are the check sets, relative to the project root: terse
// intents as agents write them, near misses (an effect no tool has, on
// objects a tool handles), requests naming a tool's thing but asking about
// another (one set per own registry), a registry of create, list, update
// and delete tools side by side, and a newcomer's first-hour requests on
// the sample registry.
func CheckCollections() []Collection {
	set := func(name, tools string) Collection {
		return Collection{Name: "check-" + name, Tools: tools, Queries: filepath.Join(checks, name+"_check_requests.jsonl")}
	}
	own := func(file string) string { return filepath.Join(checks, file) }
	return []Collection{
		set("terse", SampleTools),
		set("nearmiss", SampleTools),
		set("firsthour", SampleTools),
		{Name: "check-uncovered-sample", Tools: SampleTools, Queries: own("uncovered_check_sample_requests.jsonl")},
		{Name: "check-uncovered-home", Tools: own("home_tools.jsonl"), Queries: own("uncovered_check_home_requests.jsonl")},
		{Name: "check-uncovered-data", Tools: own("data_tools.jsonl"), Queries: own("uncovered_check_data_requests.jsonl")},
		{Name: "check-crud", Tools: own("crud_check_tools.jsonl"), Queries: own("crud_check_requests.jsonl")},
	}
}
