package gateway

import (
	"strings"
	"testing"

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
