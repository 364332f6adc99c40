package parse

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// WithAuditSchemas gives the parser the parameter schemas of the tools a
// direct call may name, so that secret arguments (writeOnly, x-secret) are
// redacted from the audit record of the call. Without it a direct call's
// arguments are recorded as written.
func WithAuditSchemas(lookup func(toolID string) []json.RawMessage) Option {
	return func(c *config) { c.auditSchemas = lookup }
}

// schemaLookup finds the parameter schemas of a tool.
type schemaLookup func(toolID string) []json.RawMessage

// redactAudit redacts a direct call's audit record.
func (p *Parser) redactAudit(a schemas.AuditRecord) schemas.AuditRecord {
	if p.cfg.auditSchemas == nil || a.ToolID == "" {
		return a
	}
	return bind.RedactAudit(a, p.cfg.auditSchemas(a.ToolID)...)
}

// Secrets is the parse stage's pipeline.SecretsFunc, and the session
// stage's, which reads the same outputs: the values of the secret
// arguments of the output's direct calls. The runner scrubs them from the
// receipt, the audit records and any dead letter; the calls themselves
// carry them on to the executor. Intents in plain words are not searched:
// which of their words is a secret is known only once they are resolved.
func (p *Parser) Secrets(_ context.Context, m *pipeline.Msg) []string {
	if p.cfg.auditSchemas == nil || !bytes.Contains(m.Data, []byte("tool_call")) {
		return nil
	}
	var out schemas.AgentOutput
	if json.Unmarshal(m.Data, &out) != nil {
		return nil
	}
	parsed, err := p.Parse(out)
	if err != nil {
		return nil
	}
	var vals []string
	for _, c := range parsed.Calls {
		vals = append(vals, bind.SecretValues(c.Parameters, p.cfg.auditSchemas(c.ToolID)...)...)
	}
	return vals
}
