package schemas

// Intent is one tool request found in an agent output: the plain-language
// text of a [TOOL: …] marker, or a direct <tool_call> that skips discovery.
type Intent struct {
	V         int    `json:"v,omitempty"`
	ID        string `json:"id"`
	SessionID string `json:"session_id"`
	MessageID string `json:"message_id"`
	// Index is the intent's position among the output's intents, in the order
	// they are to be run (an inner nested intent comes before its outer one).
	Index int `json:"index"`
	// Text is the trimmed intent text. For an outer nested intent, inner
	// markers are replaced by their own text.
	Text string `json:"text"`
	// Start and End are byte offsets of the whole marker in the output text.
	Start int `json:"start"`
	End   int `json:"end"`
	// ContextBefore and ContextAfter are the text around the marker.
	ContextBefore string `json:"context_before,omitempty"`
	ContextAfter  string `json:"context_after,omitempty"`
	// DependsOn lists the ids of intents nested inside this one.
	DependsOn []string `json:"depends_on,omitempty"`
	// Outer is the id of the intent this one is nested in ("" for one at
	// the top): every stage that answers it copies it into the result,
	// whose copy then also goes to the join stage (bind.Result).
	Outer string `json:"outer,omitempty"`
	// Nested says where in Text each intent of DependsOn stands: its text
	// as parsed, and after the join stage its result, which replaces it.
	Nested       []Nested  `json:"nested,omitempty"`
	Conversation []Message `json:"conversation,omitempty"`
	Scope        []string  `json:"scope,omitempty"`
	// TimeZone is the output's (AgentOutput.TimeZone).
	TimeZone string `json:"timezone,omitempty"`
	// Hint is set by discovery when the model in force has a learned
	// shortcut for the intent's phrasing; the stages that answer the
	// agent copy it into the result.
	Hint *Hint `json:"hint,omitempty"`
}

// Nested is the byte span [Start, End) of an outer intent's Text that holds
// the nested intent ID: its text until it has run, then its result.
type Nested struct {
	ID    string `json:"id"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}
