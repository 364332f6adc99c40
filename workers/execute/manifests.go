package execute

import (
	"encoding/json"

	"github.com/toolyard/toolyard/schemas"
)

// Ids of the builtin meta-tools in the registry.
const (
	HelpID   = "toolyard/help"
	SearchID = "toolyard/search"
	LoadID   = "toolyard/load"
)

// Search result count: default and ceiling.
const (
	DefaultSearchK = 5
	MaxSearchK     = 50
)

// BuiltinManifests returns the meta-tools as registry entries, so discovery
// finds them from plain words ("search for tools that …", "show the
// manifest of …", "help") like any other tool.
func BuiltinManifests() []schemas.Manifest {
	return append(metaManifests(), sessionManifests()...)
}

func metaManifests() []schemas.Manifest {
	return []schemas.Manifest{
		{
			ID:   HelpID,
			Name: "Help",
			Description: "Explain how to use Toolyard: the meta-tools (search, load, help, execute), " +
				"how to write [TOOL: …] intents in plain words with key=value parameters, and direct <tool_call>s. " +
				"Given a tool id, explain that tool: what it does, its parameters and an example call.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` +
				`"item_id":{"type":"string","description":"Id of a tool to explain, e.g. files/checksum; omit for general help","x-toolyard-freetext":true}}}`),
			Keywords: []string{"help", "how to", "usage", "instructions", "guide", "explain", "documentation",
				"syntax", "meta-tools", "getting started", "what can you do", "how do I use a tool"},
			Examples: []string{"help", "how do I write tool intents", "help with files/checksum",
				"explain how to call a tool directly", "what can toolyard do"},
			Type:     "tool",
			Executor: &schemas.Executor{Kind: schemas.ExecBuiltin, Builtin: schemas.MetaHelp},
			Version:  "1",
		},
		{
			ID:   SearchID,
			Name: "Search tools",
			Description: "Search the tool registry for tools that can do something described in plain words. " +
				"Returns the best matching tools with their ids, descriptions and confidence; " +
				"use it to find the right tool when you do not know its id.",
			Parameters: json.RawMessage(`{"type":"object","required":["query"],"properties":{` +
				`"query":{"type":"string","minLength":1,"description":"What the tool should do, in plain words","examples":["convert pdf to text"],"x-toolyard-freetext":true},` +
				`"k":{"type":"integer","minimum":1,"maximum":50,"default":5,"description":"How many tools to return"}}}`),
			Keywords: []string{"search", "find", "discover", "look up", "tools", "registry", "which tool",
				"available tools", "capabilities", "catalog", "list tools"},
			Examples: []string{"search for tools that convert pdf to text", "find a tool to send email",
				"which tools can check the weather", "search tools for working with files, k=10"},
			Type:     "tool",
			Executor: &schemas.Executor{Kind: schemas.ExecBuiltin, Builtin: schemas.MetaSearch},
			Version:  "1",
		},
		{
			ID:   LoadID,
			Name: "Load tool manifest",
			Description: "Show the full manifest of a tool by its id: description, JSON Schema of its parameters, " +
				"examples and how it runs. Use it to see exactly which arguments a tool takes before calling it.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` +
				`"item_id":{"type":"string","minLength":1,"description":"Id of the tool to load, e.g. files/checksum","examples":["files/checksum"],"x-toolyard-freetext":true}}}`),
			Keywords: []string{"manifest", "schema", "parameters", "arguments", "load", "describe", "inspect",
				"show tool", "tool definition", "signature", "what parameters"},
			Examples: []string{"show the manifest of files/checksum", "load the tool system/disk_usage",
				"what parameters does maps/google_maps_scraper take", "describe the schema of weather/forecast"},
			Type:     "tool",
			Executor: &schemas.Executor{Kind: schemas.ExecBuiltin, Builtin: schemas.MetaLoad},
			Version:  "1",
		},
	}
}
