package schemas

// AgentOutput is what an agent platform publishes to agent.output.<session>:
// a chunk of model output that may contain [TOOL: …] intents or direct
// <tool_call> elements.
type AgentOutput struct {
	V         int    `json:"v,omitempty"`
	SessionID string `json:"session_id"`
	// MessageID identifies this output within its session. Intent ids derive
	// from it, so publishing the same output twice with the same id yields the
	// same intents and the pipeline's de-duplication makes it run once.
	MessageID    string    `json:"message_id,omitempty"`
	Text         string    `json:"text"`
	Conversation []Message `json:"conversation,omitempty"`
	// Scope restricts discovery to these tool ids or server names.
	Scope []string `json:"scope,omitempty"`
	// TimeZone is the IANA time zone of the person the agent serves
	// (Europe/Berlin): the days and times its intents write ("tomorrow at
	// 9am") are read in it. Without it they are read in the worker's zone,
	// which in a container is usually UTC.
	TimeZone string `json:"timezone,omitempty"`
}

// Message is one turn of the conversation that preceded an output.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// StreamChunk is one piece of an output as the agent writes it, published
// to agent.stream.<session> before the whole output goes to
// agent.output.<session>. Seq numbers the chunks of one message from 0, so
// a reader can restore their order and drop duplicates. Chunks only feed
// the predictor: the output on agent.output is what runs.
type StreamChunk struct {
	V         int    `json:"v,omitempty"`
	SessionID string `json:"session_id"`
	MessageID string `json:"message_id"`
	Seq       uint64 `json:"seq"`
	Delta     string `json:"delta"`
}
