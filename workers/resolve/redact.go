package resolve

import (
	"encoding/json"
	"errors"

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

// ErrorArgs are the arguments a failed resolution had read (nil for other
// errors): their secret values must be scrubbed from the error result,
// which may quote them.
func ErrorArgs(err error) map[string]any { return errArgs(err) }

func errArgs(err error) map[string]any {
	var missing *MissingError
	var invalid *InvalidError
	switch {
	case errors.As(err, &missing):
		return missing.Found
	case errors.As(err, &invalid):
		return invalid.Args
	}
	return nil
}
