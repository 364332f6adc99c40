package parse

import (
	"encoding/json"

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
