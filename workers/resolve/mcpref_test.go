package resolve

import (
	"context"
	"reflect"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
)

// TestResolveMCPReferenceServers resolves plain-words requests against the
// tools of the MCP reference servers as `toolyard tools import mcp` stores
// them (testdata/mcp-reference-tools.jsonl: @modelcontextprotocol/server-
// everything and server-filesystem at the versions package-lock.json pins,
// executors left out): terse schemas, parameters named a, b, message, path,
// no key=value in the requests. Defaults the schemas declare are part of
// the call.
func TestResolveMCPReferenceServers(t *testing.T) {
	tools, err := registry.LoadFile("testdata/mcp-reference-tools.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]schemas.Manifest{}
	for _, m := range tools {
		byID[m.ID] = m
	}
	tests := []struct {
		tool, text string
		want       map[string]any
	}{
		{"everything/get-sum", "get the sum of 2 and 3", map[string]any{"a": 2.0, "b": 3.0}},
		{"everything/get-sum", "add the numbers 2 and 3", map[string]any{"a": 2.0, "b": 3.0}},
		{"everything/echo", "echo the message hello world", map[string]any{"message": "hello world"}},
		{"everything/echo", "echo hello world", map[string]any{"message": "hello world"}},
		{"everything/get-resource-links", "get resource links 4", map[string]any{"count": 4.0}},
		{"fs/list_directory", "list the directory /srv/data", map[string]any{"path": "/srv/data"}},
		{"fs/list_directory", "list the directory src", map[string]any{"path": "src"}},
		{"fs/read_text_file", "read the file notes/todo.md", map[string]any{"path": "notes/todo.md"}},
		{"fs/read_text_file", "read the first 3 lines of the file /srv/a.txt", map[string]any{"path": "/srv/a.txt", "head": 3.0}},
		{"fs/read_text_file", "read the last 10 lines of app.log", map[string]any{"path": "app.log", "tail": 10.0}},
		{"fs/move_file", "move the file /srv/a.txt to /srv/b.txt", map[string]any{"source": "/srv/a.txt", "destination": "/srv/b.txt"}},
		{"fs/search_files", "search files in /srv matching *.txt", map[string]any{"path": "/srv", "pattern": "*.txt", "excludePatterns": []any{}}},
		{"fs/directory_tree", "show the directory tree of ./docs", map[string]any{"path": "./docs", "excludePatterns": []any{}}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			m, ok := byID[tt.tool]
			if !ok {
				t.Fatalf("no tool %s in testdata", tt.tool)
			}
			call, err := Resolve(context.Background(), routed(tt.text), m)
			if err != nil {
				t.Fatalf("Resolve(%q) with %s: %v", tt.text, tt.tool, err)
			}
			if !reflect.DeepEqual(call.Parameters, tt.want) {
				t.Fatalf("Resolve(%q) with %s\n got %#v\nwant %#v", tt.text, tt.tool, call.Parameters, tt.want)
			}
		})
	}
}
