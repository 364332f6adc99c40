package schemas

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// Result statuses.
const (
	// StatusAccepted is the receipt for an agent output: how many intents it
	// held, so a reader knows how many results to wait for.
	StatusAccepted = "accepted"
	StatusExecuted = "executed"
	StatusMultiple = TierMultiple
	StatusWeak     = TierWeak
	StatusNotFound = TierNotFound
	StatusError    = "error"
	// StatusMissingArguments: the intent states a value the resolver could
	// not place although the tool has a parameter for it; the call did not
	// run (see Result.Unmapped).
	StatusMissingArguments = "missing_arguments"
)

// Result is what the agent reads back on result.<session>.
type Result struct {
	V         int       `json:"v,omitempty"`
	SessionID string    `json:"session_id"`
	MessageID string    `json:"message_id,omitempty"`
	IntentID  string    `json:"intent_id,omitempty"`
	Status    string    `json:"status"`
	Intent    string    `json:"intent,omitempty"`
	ToolID    string    `json:"tool_id,omitempty"`
	Timestamp time.Time `json:"timestamp"`
	// Stage is the stage that produced this result.
	Stage string `json:"stage"`
	// Message tells the agent what happened and what to do next.
	Message string `json:"message,omitempty"`
	// Arguments are the arguments of the call that ran (or was tried, on an
	// execution error), secret values redacted; an empty object for a call
	// without arguments, absent when no call ran.
	Arguments map[string]any `json:"arguments,omitzero"`
	// Unmapped are the values the intent states that no argument took, each
	// with the parameter that would take it when the tool has one.
	Unmapped []Unmapped `json:"unmapped,omitempty"`
	// Output is the tool's output when executed.
	Output *ToolOutput `json:"output,omitempty"`
	// Matches are the alternatives offered when no tool was activated.
	Matches []Candidate `json:"matches,omitempty"`
	// Unmatched are the words of a not-found intent that no tool in the
	// registry contains: what the agent should rephrase.
	Unmatched []string `json:"unmatched,omitempty"`
	// Available summarises the servers a not-found intent could have used
	// (counts, never the whole registry).
	Available *Catalog `json:"available,omitempty"`
	// IntentIDs lists the intents of an accepted output, in run order.
	IntentIDs []string `json:"intent_ids,omitempty"`
	// TextSHA256 is, on a receipt, the SHA-256 (lower-case hex) of the
	// accepted output's text (TextDigest): a client that publishes under a
	// message id used before tells by it whether the output that runs under
	// the id is its own.
	TextSHA256 string `json:"text_sha256,omitempty"`
	Error      *Error `json:"error,omitempty"`
	// TraceID is the OpenTelemetry trace (32 hex digits) of the agent
	// output this result answers, when it was traced: the W3C trace
	// context came with the output, or the workers export traces.
	TraceID string `json:"trace_id,omitempty"`
	// Hint is the learned shortcut for this intent's phrasing, when the
	// model in force has one: the direct call that history says it
	// resolves to, so the agent can skip discovery next time.
	Hint *Hint `json:"hint,omitempty"`
	// Outer is the id of the intent this one is nested in, which waits
	// for this result ("" for an intent at the top).
	Outer string `json:"outer,omitempty"`
}

// Hint is a learned shortcut (the "directive cache"): an intent phrasing
// that, in the history the model in force was trained on, resolved to the
// same tool again and again, across sessions. It is advice, never a
// decision: the result it rides on is what discovery and routing decided.
type Hint struct {
	// ToolID is the tool the phrasing resolved to.
	ToolID string `json:"tool_id"`
	// ToolCall is the direct form to write instead of the intent, its
	// arguments left for the agent: <tool_call name="ID">{…}</tool_call>.
	ToolCall string `json:"tool_call"`
	// Count is how many labelled intents of this phrasing resolved to
	// ToolID, from Sessions distinct sessions; Share is their part of all
	// the phrasing's labels (the rest went elsewhere or were judged wrong).
	Count    int     `json:"count"`
	Sessions int     `json:"sessions"`
	Share    float64 `json:"share"`
	// Model is the model version the shortcut was learned in.
	Model string `json:"model,omitempty"`
}

// Unmapped is a value an intent states (a name, a number, a quoted string,
// a path, an address) that the resolver could not put into an argument.
type Unmapped struct {
	// Text is the value as the intent wrote it.
	Text string `json:"text"`
	// Parameter is the parameter that would take it, empty when the tool
	// has none.
	Parameter string `json:"parameter,omitempty"`
	// Tool is the tool to ask for the text in an intent of its own: the
	// other tool the text names (a second request written into the intent:
	// "kernel version and uptime"), or the call's own tool when Parameter
	// already held a value of the same kind and takes one ("sha256 of
	// a.iso and b.iso").
	Tool string `json:"tool,omitempty"`
}

// Unplaced reports whether a parameter of the call's tool would take the
// value although none did: the call should not run without it. A value
// for a parameter that already held one (Tool names the call's own tool)
// is not: the call runs, and the agent asks for it again.
func (u Unmapped) Unplaced() bool { return u.Parameter != "" && u.Tool == "" }

// ToolOutput is what an executed tool produced.
type ToolOutput struct {
	// Content is the tool's output: text for subprocesses, JSON for builtins.
	Content    any     `json:"content"`
	ExitCode   *int    `json:"exit_code,omitempty"`
	Stderr     string  `json:"stderr,omitempty"`
	Truncated  bool    `json:"truncated,omitempty"`
	DurationMS float64 `json:"duration_ms"`
	// StatusCode is the HTTP status of an http tool's response.
	StatusCode int `json:"status_code,omitempty"`
	// Ref is set when the output was too large to carry inline: the whole
	// output is in the object store it names, and Content holds its first
	// few KiB (a preview, always text).
	Ref *OutputRef `json:"ref,omitempty"`
}

// OutputRef names a tool output kept in a JetStream object store.
type OutputRef struct {
	Bucket string `json:"bucket"`
	Name   string `json:"name"`
	// Size is the whole output's length in bytes.
	Size int64 `json:"size"`
	// Digest is the object's digest as the object store reports it
	// ("SHA-256=<base64url>"): a reader can tell a newer output stored
	// under the same name from this one.
	Digest string `json:"digest,omitempty"`
	// ContentType is text/plain for text output, application/json for a
	// JSON value.
	ContentType string `json:"content_type,omitempty"`
}

// Error explains a failure in terms the agent (or its operator) can act on.
type Error struct {
	// Code is a stable machine-readable reason (invalid_input, tool_failed, …).
	Code    string `json:"code"`
	Message string `json:"message"`
}

// TextDigest is an agent output's text as a receipt names it
// (Result.TextSHA256).
func TextDigest(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}
