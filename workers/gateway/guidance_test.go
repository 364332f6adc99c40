package gateway

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolyard/toolyard/schemas"
)

// MCP clients are told what to do in MCP terms (the gateway's tools), never
// to write [TOOL: …] text they have no way to send.
func TestMCPGuidanceSpeaksMCP(t *testing.T) {
	pipelineMsg := "activate it with [TOOL: activate files/checksum] or look for tools with [TOOL: find_tools <what you need>]."
	for status, want := range map[string]string{
		schemas.StatusMultiple: "Call activate",
		schemas.StatusWeak:     "Call activate",
		schemas.StatusNotFound: "Call find_tools",
	} {
		got := mcpGuidance(schemas.Result{Status: status, Message: pipelineMsg})
		if strings.Contains(got, "[TOOL") || !strings.Contains(got, want) {
			t.Errorf("%s: %q", status, got)
		}
	}
}

// A near miss is not offered as a tool that might do it: the answer says
// what was asked and what the match says it does.
func TestMCPGuidanceNamesANearMiss(t *testing.T) {
	r := schemas.Result{Status: schemas.StatusMultiple, Message: "No tool here says it can delete … [TOOL: activate slack/post_message]",
		Matches: []schemas.Candidate{{ToolID: "slack/post_message", Confidence: 0.52,
			Mismatch: &schemas.EffectMismatch{Asked: []string{"delete"}, Names: []string{"create"}}}}}
	got := mcpGuidance(r)
	for _, want := range []string{"No tool here says it can delete as asked: slack.post_message says it can create", "call activate"} {
		if !strings.Contains(got, want) || strings.Contains(got, "[TOOL") {
			t.Errorf("near miss: %q lacks %q", got, want)
		}
	}
}

// A missing_arguments answer names the value and the parameter in MCP
// terms; an executed result says which words it did not use beside the
// output; the structured content carries the arguments.
func TestResultContentArguments(t *testing.T) {
	missing := schemas.Result{Status: schemas.StatusMissingArguments, ToolID: "system/current_time",
		Message:  `"Atlantis" was not used … e.g. [TOOL: system/current_time timezone=Europe/Paris]`,
		Unmapped: []schemas.Unmapped{{Text: "Atlantis", Parameter: "timezone"}}, Arguments: map[string]any{}}
	got := resultContent(missing)
	text := got.Content[0].(*mcp.TextContent).Text
	if got.IsError || strings.Contains(text, "[TOOL") || !strings.Contains(text, `"Atlantis"`) || !strings.Contains(text, "timezone") || !strings.Contains(text, "execute") {
		t.Errorf("missing_arguments rendered as %q (error %v)", text, got.IsError)
	}
	ran := schemas.Result{Status: schemas.StatusExecuted, ToolID: "system/uptime", Message: `Ran system/uptime without "Hermes"`,
		Unmapped: []schemas.Unmapped{{Text: "Hermes"}}, Arguments: map[string]any{},
		Output: &schemas.ToolOutput{Content: "up 3 days"}}
	got = resultContent(ran)
	text = got.Content[0].(*mcp.TextContent).Text
	if !strings.HasPrefix(text, "up 3 days") || !strings.Contains(text, "Hermes") {
		t.Errorf("executed with unmapped rendered as %q", text)
	}
	sc, _ := got.StructuredContent.(map[string]any)
	if args, ok := sc["arguments"].(map[string]any); !ok || len(args) != 0 {
		t.Errorf("structured content %v lacks arguments {}", sc)
	}
	plain := schemas.Result{Status: schemas.StatusExecuted, Output: &schemas.ToolOutput{Content: "ok"}, Arguments: map[string]any{}}
	if text := resultContent(plain).Content[0].(*mcp.TextContent).Text; text != "ok" {
		t.Errorf("executed without unmapped rendered as %q, want the output alone", text)
	}
}
