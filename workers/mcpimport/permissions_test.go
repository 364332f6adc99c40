package mcpimport_test

import (
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolyard/toolyard/workers/mcpclient"
	"github.com/toolyard/toolyard/workers/mcpimport"
)

// A tool's MCP annotations become permissions, so an execute worker's
// deny-by-default gate refuses what writes, deletes or reaches out.
func TestAnnotationsBecomePermissions(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name string
		ann  *mcp.ToolAnnotations
		want []string
	}{
		{"no annotations", nil, nil},
		{"read-only", &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}, nil},
		{"read-only, open world", &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &yes}, []string{mcpimport.PermNetwork}},
		{"writes, not destructive", &mcp.ToolAnnotations{DestructiveHint: &no}, []string{mcpimport.PermWrite}},
		{"writes, destructive by default", &mcp.ToolAnnotations{Title: "Move"}, []string{mcpimport.PermWrite, mcpimport.PermDelete}},
		{"everything", &mcp.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: &yes}, []string{mcpimport.PermWrite, mcpimport.PermDelete, mcpimport.PermNetwork}},
	}
	src := mcpimport.Source{Name: "srv", Server: mcpclient.Server{Command: []string{"/bin/true"}}}
	for _, tc := range tests {
		m, err := src.Manifest(&mcp.Tool{Name: "t", Description: "a tool", Annotations: tc.ann})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.Permissions, tc.want) {
			t.Errorf("%s: permissions %q, want %q", tc.name, m.Permissions, tc.want)
		}
	}
}
