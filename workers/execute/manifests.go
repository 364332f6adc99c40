package execute

import (
	"encoding/json"

	"github.com/toolyard/toolyard/schemas"
)

// Ids of the builtin meta-tools in the registry.
const (
	HelpID   = schemas.MetaHelpID
	SearchID = schemas.MetaSearchID
	LoadID   = schemas.MetaLoadID
)

// Search result count: default and ceiling.
const (
	DefaultSearchK = 5
	MaxSearchK     = 50
)

// BuiltinManifests returns the meta-tools as registry entries, so discovery
// finds them from plain words ("search for tools that …", "show the
// manifest of …", "help") like any other tool. Their texts speak of tools
// only: they sit in every registry, and a domain word or a common verb in
// them ("explain", "schema", "resize images", "send email") made them the
// best match for requests no tool serves ("explain what a monad is" →
// help at 0.71; "resize this image" → find_tools, activated) and for some
// another tool does ("add 17 and 25" → activate).
func BuiltinManifests() []schemas.Manifest {
	return append(metaManifests(), sessionManifests()...)
}

func metaManifests() []schemas.Manifest {
	return []schemas.Manifest{
		{
			ID:   HelpID,
			Name: "Help",
			Description: "How to use Toolyard and its tools: the meta-tools (search, load, help, execute), " +
				"how to write [TOOL: …] intents in plain words with key=value parameters, and direct <tool_call>s. " +
				"Given a tool id, that tool: what it does, its parameters and an example call.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` +
				`"item_id":{"type":"string","description":"Id of a tool to explain, e.g. files/checksum; omit for general help","x-toolyard-freetext":true}}}`),
			Keywords: []string{"help", "toolyard help", "tool usage", "intent syntax", "meta-tools",
				"getting started with toolyard", "how do I use a tool", "what tools can you use"},
			Examples: []string{"help", "how do I write tool intents", "help with toolyard/search",
				"how to call a tool directly", "what can toolyard do"},
			Type:     "tool",
			Executor: &schemas.Executor{Kind: schemas.ExecBuiltin, Builtin: schemas.MetaHelp},
			Version:  "1",
		},
		{
			ID:   SearchID,
			Name: "Search tools",
			Description: "Search the tool registry for the tools whose purpose matches a task in plain words. " +
				"Returns the best matching tools with their ids, descriptions and confidence: " +
				"the way to a tool whose id you do not know.",
			Parameters: json.RawMessage(`{"type":"object","required":["query"],"properties":{` +
				`"query":{"type":"string","minLength":1,"description":"What the tool should do, in plain words","examples":["convert pdf to text"],"x-toolyard-freetext":true},` +
				`"k":{"type":"integer","minimum":1,"maximum":50,"default":5,"description":"How many tools to return"}}}`),
			Keywords: []string{"search tools", "find a tool", "tools", "registry", "which tool",
				"available tools", "tool catalog", "list tools"},
			Examples: []string{"search for tools", "find a tool for this task",
				"which tools are available", "search the registry for tools, k=10"},
			Type:     "tool",
			Executor: &schemas.Executor{Kind: schemas.ExecBuiltin, Builtin: schemas.MetaSearch},
			Version:  "1",
		},
		{
			ID:   LoadID,
			Name: "Load tool manifest",
			Description: "Load the full manifest of a tool by its id: its description, the JSON Schema of its parameters, " +
				"examples and how it runs; to see exactly which arguments a tool takes before calling it.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` +
				`"item_id":{"type":"string","minLength":1,"description":"Id of the tool to load, e.g. files/checksum","examples":["files/checksum"],"x-toolyard-freetext":true}}}`),
			Keywords: []string{"manifest", "tool manifest", "tool schema", "tool parameters", "load tool",
				"tool definition", "tool signature", "what parameters does a tool take"},
			Examples: []string{"show the manifest of toolyard/search", "load the tool toolyard/find_tools",
				"what parameters does toolyard/activate take", "the schema of the tool toolyard/help"},
			Type:     "tool",
			Executor: &schemas.Executor{Kind: schemas.ExecBuiltin, Builtin: schemas.MetaLoad},
			Version:  "1",
		},
	}
}
