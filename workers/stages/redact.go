package stages

import (
	"context"
	"encoding/json"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
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

// cueSecrets are the values an input names for a secret parameter of some
// tool of the registry ("token=abc123"): before resolve, no stage knows
// which tool an intent is for, so a secret written in plain words is
// recognised by its name.
func (s *Set) cueSecrets(_ context.Context, m *pipeline.Msg) []string {
	if !s.registry.HasSecretParams() {
		return nil
	}
	// A hand-off from a stage of this process may come unencoded
	// (pipeline.Handoff); its words are looked at all the same.
	data, err := m.Bytes()
	if err != nil {
		return nil
	}
	return bind.SecretCuesJSON(data, s.registry.SecretParam)
}

// withCues lists both the stage's own secrets and the cues.
func withCues(own, cues pipeline.SecretsFunc) pipeline.SecretsFunc {
	if own == nil {
		return cues
	}
	return func(ctx context.Context, m *pipeline.Msg) []string {
		return append(own(ctx, m), cues(ctx, m)...)
	}
}
