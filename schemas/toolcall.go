package schemas

// Meta-tools: the fixed verbs of a ToolCall.
const (
	MetaSearch  = "search"
	MetaLoad    = "load"
	MetaExecute = "execute"
	MetaHelp    = "help"
)

// ToolCall is a resolved call ready to execute: from resolution, or straight
// from a direct <tool_call> in the agent output.
type ToolCall struct {
	V         int    `json:"v,omitempty"`
	IntentID  string `json:"intent_id"`
	SessionID string `json:"session_id"`
	MessageID string `json:"message_id,omitempty"`
	// MetaTool is one of search, load, execute, help.
	MetaTool string `json:"meta_tool"`
	// ItemType is the kind of item the meta-tool acts on (tool, script, …).
	ItemType string `json:"item_type,omitempty"`
	// Action narrows the meta-tool (e.g. "run" for execute).
	Action     string         `json:"action,omitempty"`
	ToolID     string         `json:"tool_id,omitempty"`
	Parameters map[string]any `json:"parameters,omitempty"`
	Confidence float64        `json:"confidence,omitempty"`
	// Intent is the plain-language text the call was resolved from; empty for direct calls.
	Intent string `json:"intent,omitempty"`
	// Direct is true when the agent wrote the call itself.
	Direct bool `json:"direct,omitempty"`
	// Scope is the agent output's scope (tool ids or server names): when
	// set, execute runs only tools inside it, direct calls included.
	Scope []string `json:"scope,omitempty"`
	// Unmapped are values the intent states that the resolver put into no
	// argument and that no parameter of the tool would take: the result
	// reports them beside the output.
	Unmapped []Unmapped `json:"unmapped,omitempty"`
	// Hint is the intent's learned shortcut (Intent.Hint), for the result.
	Hint *Hint `json:"hint,omitempty"`
	// Outer is the intent's Intent.Outer, for the result.
	Outer string `json:"outer,omitempty"`
}
