package schemas

import "time"

// AuditRecord is one decision of one stage, appended to audit.<stage>.<session>.
// The training job replays these; the first seven fields are the contract in
// DESIGN.md, the rest explain the decision.
type AuditRecord struct {
	Timestamp           time.Time      `json:"timestamp"`
	SessionID           string         `json:"session_id"`
	ConversationContext string         `json:"conversation_context"`
	IntentExpressed     string         `json:"intent_expressed"`
	ToolID              string         `json:"tool_id"`
	Parameters          map[string]any `json:"parameters"`
	Result              string         `json:"result"`

	V          int     `json:"v,omitempty"`
	Stage      string  `json:"stage"`
	IntentID   string  `json:"intent_id,omitempty"`
	MessageID  string  `json:"message_id,omitempty"`
	Decision   string  `json:"decision,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
	// Candidates are the tool ids considered, best first.
	Candidates []string `json:"candidates,omitempty"`
	DurationMS float64  `json:"duration_ms,omitempty"`
	Error      string   `json:"error,omitempty"`
	// TraceID is the trace of the agent output the decision was about,
	// when traced (see Result.TraceID).
	TraceID string `json:"trace_id,omitempty"`
}
