package gateway

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// maxName is MCP's limit on tool names.
const maxName = 128

// mcpName is the MCP tool name of a tool id: "/" becomes ".", any other
// character outside [A-Za-z0-9_.-] "_"; a name that would be too long, or
// that had to change beyond the "/", ends in a short hash of the id so two
// ids never share a name.
func mcpName(id string) string {
	var b strings.Builder
	lossy := false
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.':
			b.WriteRune(r)
		case r == '/':
			b.WriteByte('.')
		default:
			b.WriteByte('_')
			lossy = true
		}
	}
	name := b.String()
	if strings.Contains(id, ".") && strings.Contains(id, "/") {
		// "a.b/c" and "a/b.c" would both be "a.b.c".
		lossy = true
	}
	if !lossy && len(name) <= maxName && name != "" {
		return name
	}
	sum := sha256.Sum256([]byte(id))
	suffix := "-" + hex.EncodeToString(sum[:4])
	if len(name) > maxName-len(suffix) {
		name = name[:maxName-len(suffix)]
	}
	return name + suffix
}
