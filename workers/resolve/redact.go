package resolve

import (
	"encoding/json"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
)

// auditSchemas are the schemas whose secret parameters (writeOnly,
// x-secret) are redacted from the audit record of a resolution: the
// activated tool's, and the called tool's when a resolver chose another.
func auditSchemas(reg *registry.Registry, tool schemas.Manifest, calledID string) []json.RawMessage {
	out := []json.RawMessage{tool.Parameters}
	if calledID != tool.ID {
		if m, ok := reg.Get(calledID); ok {
			out = append(out, m.Parameters)
		}
	}
	return out
}
