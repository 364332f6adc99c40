package mcpclient

import (
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Render turns a tool result into what an agent reads: the text blocks
// joined by newlines (embedded text resources included, other media named
// by a short placeholder), or, when the result has no text, its structured
// content as a JSON value.
func Render(res *mcp.CallToolResult) any {
	if res == nil {
		return ""
	}
	var parts []string
	hasText := false
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
			hasText = true
		case *mcp.EmbeddedResource:
			if c.Resource != nil && c.Resource.Text != "" {
				parts = append(parts, c.Resource.Text)
				hasText = true
			} else if c.Resource != nil {
				parts = append(parts, fmt.Sprintf("[resource %s, %s, %d bytes]", c.Resource.URI, c.Resource.MIMEType, len(c.Resource.Blob)))
			}
		case *mcp.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource link %s: %s]", c.URI, firstNonEmpty(c.Title, c.Name, c.Description)))
		case *mcp.ImageContent:
			parts = append(parts, fmt.Sprintf("[image %s, %d bytes]", c.MIMEType, len(c.Data)))
		case *mcp.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio %s, %d bytes]", c.MIMEType, len(c.Data)))
		}
	}
	if !hasText && res.StructuredContent != nil {
		return res.StructuredContent
	}
	return strings.Join(parts, "\n")
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
