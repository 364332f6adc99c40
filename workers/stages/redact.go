package stages

import (
	"encoding/json"

	"github.com/toolyard/toolyard/schemas"
)

// paramSchemas are the parameter schemas of a tool and of the tools it
// delegates to, from the live registry: the parse stage redacts the secret
// arguments of direct calls from its audit records with them.
func (s *Set) paramSchemas(toolID string) []json.RawMessage {
	var out []json.RawMessage
	seen := map[string]bool{}
	for id := toolID; id != "" && !seen[id] && len(seen) < 16; {
		seen[id] = true
		m, ok := s.registry.Get(id)
		if !ok {
			break
		}
		out = append(out, m.Parameters)
		id = ""
		if m.Executor != nil && m.Executor.Kind == schemas.ExecTool {
			id = m.Executor.Tool
		}
	}
	return out
}
