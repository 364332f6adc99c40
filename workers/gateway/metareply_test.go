package gateway

import (
	"encoding/json"
	"strings"
	"testing"
)

// find_tools and activate answer MCP clients in MCP terms: the next step
// is a tool to call, by the name tools/list gives it, never [TOOL: …]
// text. The replies are the session service's, as it writes them.
func TestMetaRepliesSpeakMCP(t *testing.T) {
	match := `{"id":"files/checksum","name":"checksum","confidence":0.91}`
	tests := []struct {
		name  string
		reply func(json.RawMessage) json.RawMessage
		raw   string
		want  []string
	}{
		{"added", mcpFindReply,
			`{"query":"sha256 of a file","matches":[` + match + `],"added":["files/checksum"],"tools":["files/checksum"],"message":"Added 1 tool(s) to your session: files/checksum."}`,
			[]string{"Added to your tool list: files.checksum (files/checksum)", "Call it by that name"}},
		{"already active", mcpFindReply,
			`{"query":"sha256 of a file","matches":[` + match + `],"added":[],"tools":["files/checksum"],"message":"The matching tools were already in your session."}`,
			[]string{"in your tool list already", "by its name"}},
		{"weak only", mcpFindReply,
			`{"query":"sha256 of a file","matches":[` + match + `],"added":[],"tools":[],"message":"Only weak matches for \"x\", none added; activate one by id with [TOOL: activate <id>] if it is right."}`,
			[]string{"call activate with its id", "call it by name"}},
		{"near miss", mcpFindReply,
			`{"query":"delete the slack message","matches":[{"id":"slack/post_message","name":"post","confidence":0.52,"mismatch":{"asked":["delete"],"names":["create"]}}],"added":[],"tools":[],"message":"No tool here says it can delete as \"delete the slack message\" asks: slack/post_message says it can create. None added; activate one by id with [TOOL: activate <id>] if it is right anyway."}`,
			[]string{"No tool here says it can delete as asked: slack.post_message says it can create", "None added", "call activate with its id"}},
		{"nothing", mcpFindReply,
			`{"query":"fly me to the moon","matches":[],"added":[],"tools":[],"message":"No tool matched \"fly me to the moon\"; describe the task differently."}`,
			[]string{`No tool matched "fly me to the moon"`, "Call find_tools again"}},
		{"activated", mcpActivateReply,
			`{"activated":"files/checksum","tool":{"id":"files/checksum","text":"Checksum (files/checksum). Ask for it as [TOOL: files/checksum]","usage":"[TOOL: files/checksum path=…]","tool_call":"<tool_call name=\"files/checksum\">{…}</tool_call>"},"tools":["files/checksum"],"message":"files/checksum is active in your session. Call it as [TOOL: files/checksum path=…] or <tool_call …>"}`,
			[]string{"in your tool list as files.checksum", "Call files.checksum with its arguments"}},
		{"meta-tool", mcpActivateReply,
			`{"activated":"toolyard/find_tools","tool":{"usage":"[TOOL: find_tools <what>]"},"tools":[],"message":"toolyard/find_tools is a meta-tool and always available. [TOOL: find_tools <what>]"}`,
			[]string{"always listed: call find_tools"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(tt.reply(json.RawMessage(tt.raw)))
			if strings.Contains(got, "[TOOL") || strings.Contains(got, "<tool_call") {
				t.Errorf("reply still tells an MCP client to write text: %s", got)
			}
			var before, after map[string]any
			_ = json.Unmarshal([]byte(tt.raw), &before)
			if err := json.Unmarshal([]byte(got), &after); err != nil {
				t.Fatalf("reply is no longer JSON: %v", err)
			}
			msg, _ := after["message"].(string)
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message lacks %q: %s", w, msg)
				}
			}
			for k := range before {
				if _, ok := after[k]; !ok {
					t.Errorf("reply lost its %q", k)
				}
			}
		})
	}
	// What is not such a reply passes as it is.
	for _, raw := range []string{`not json`, `{"other":1}`} {
		if got := string(mcpActivateReply(json.RawMessage(raw))); got != raw {
			t.Errorf("activate reply %s became %s", raw, got)
		}
	}
}

// The server's instructions send a client to find_tools and then to the
// tool it added, not to writing text.
func TestInstructionsSpeakMCP(t *testing.T) {
	if strings.Contains(instructions, "[TOOL") || !strings.Contains(instructions, "call find_tools") ||
		!strings.Contains(instructions, "call the right one by its name") {
		t.Errorf("instructions: %s", instructions)
	}
}
