package gateway

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A meta-tool call whose arguments do not fit its schema is answered in the
// tool's terms, naming the argument and what the tool takes, and does not
// reach Toolyard; a call that fits does.
func TestMetaToolArgumentsChecked(t *testing.T) {
	tools := map[string]*mcp.Tool{}
	for _, m := range (&conn{}).metaTools() {
		tools[m.tool.Name] = m.tool
	}
	tests := []struct {
		tool, args string
		want       string // "" when the call fits
	}{
		{ToolResolveIntent, `{"text": "show disk usage of /tmp"}`, ""},
		{ToolResolveIntent, `{"intent": "uptime"}`, `resolve_intent: missing argument "text" (what you want done), unknown argument "intent"; it takes text (required)`},
		{ToolResolveIntent, `{}`, `missing argument "text"`},
		{ToolResolveIntent, ``, `missing argument "text"`},
		{ToolResolveIntent, `{"text": ""}`, `missing argument "text"`},
		{ToolResolveIntent, `{"text": 42}`, `argument "text" must be a string, got a number`},
		{ToolResolveIntent, `{"text": "uptime", "note": "extra"}`, ""},
		{ToolResolveIntent, `["uptime"]`, "the arguments must be a JSON object"},
		{ToolFindTools, `{"query": "disk", "k": 3}`, ""},
		{ToolFindTools, `{"query": "disk", "k": 0}`, `argument "k" must be at least 1, got 0`},
		{ToolFindTools, `{"query": "disk", "k": 500}`, `argument "k" must be at most 50`},
		{ToolFindTools, `{"query": "disk", "k": 2.5}`, `argument "k" must be an integer, got a fractional number`},
		{ToolFindTools, `{"q": "disk"}`, `missing argument "query"`},
		{ToolActivate, `{"tool_id": "files/checksum"}`, `activate: missing argument "id" (the tool id, e.g. files/checksum), unknown argument "tool_id"; it takes id (required)`},
		{ToolExecute, `{"tool_id": "files/checksum", "arguments": {"path": "/etc/hostname"}}`, ""},
		{ToolExecute, `{"tool_id": "files/checksum", "arguments": "{\"path\": \"/etc/hostname\"}"}`, `argument "arguments" must be an object, got a string; it takes arguments, tool_id (required)`},
	}
	for _, tt := range tests {
		tool := tools[tt.tool]
		if tool == nil {
			t.Fatalf("no meta-tool %s", tt.tool)
		}
		reached := false
		h := checked(tool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			reached = true
			return textResult(false, "ok", nil), nil
		})
		res, err := h(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: tt.tool, Arguments: json.RawMessage(tt.args)}})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if tt.want == "" {
			if !reached || res.IsError {
				t.Errorf("%s %s: refused with %q, want it to reach Toolyard", tt.tool, tt.args, text)
			}
			continue
		}
		if reached || !res.IsError || !strings.Contains(text, tt.want) {
			t.Errorf("%s %s: reached %v, %q (error %v)\nwant an error mentioning %q", tt.tool, tt.args, reached, text, res.IsError, tt.want)
		}
	}
}
