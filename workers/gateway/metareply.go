package gateway

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// The session service answers find_tools and activate for every kind of
// client, and its message speaks to agents writing [TOOL: …] text. An MCP
// client calls tools instead: mcpReply keeps the reply's data and says the
// next step in MCP terms, naming the tools as tools/list lists them.

// findReply is what find_tools answers (workers/execute/sessions.go).
type findReply struct {
	Query   string      `json:"query"`
	Matches []findMatch `json:"matches"`
	Added   []string    `json:"added"`
	Tools   []string    `json:"tools"`
}

// findMatch is what the reply's message reads of a match.
type findMatch struct {
	ID       string                  `json:"id"`
	Mismatch *schemas.EffectMismatch `json:"mismatch"`
}

// mcpFindReply is raw with its message in MCP terms; raw that is not a
// find_tools reply is returned as it is.
func mcpFindReply(raw json.RawMessage) json.RawMessage {
	var r findReply
	if json.Unmarshal(raw, &r) != nil {
		return raw
	}
	var msg string
	switch {
	case len(r.Matches) == 0:
		msg = fmt.Sprintf("No tool matched %q. Call find_tools again with other words for what the tool should do, or answer without a tool.", r.Query)
	case len(r.Added) > 0:
		msg = fmt.Sprintf("Added to your tool list: %s. Call it by that name with its arguments (tools/list has its parameters).", names(r.Added))
	case anyActive(r):
		msg = "The matching tools are in your tool list already. Call the right one by its name with its arguments."
	case r.Matches[0].Mismatch != nil:
		msg = nearMissSays(r.Matches[0].ID, *r.Matches[0].Mismatch) + " None added. If one is right anyway, call activate with its id; it then joins your tool list and you call it by name."
	default:
		msg = "Only weak matches, none added. If one is right, call activate with its id; it then joins your tool list and you call it by name."
	}
	return withMessage(raw, msg, nil)
}

// nearMissSays is, in MCP terms, what a match that does another kind of
// thing than was asked says it does.
func nearMissSays(id string, m schemas.EffectMismatch) string {
	return fmt.Sprintf("No tool here says it can %s as asked: %s says it can %s.", m.AskedText(), mcpName(id), m.NamesText())
}

// mcpActivateReply is activate's reply with its message in MCP terms and
// without the text-protocol parts of the tool's help.
func mcpActivateReply(raw json.RawMessage) json.RawMessage {
	var r struct {
		Activated string `json:"activated"`
	}
	if json.Unmarshal(raw, &r) != nil || r.Activated == "" {
		return raw
	}
	msg := fmt.Sprintf("%s is in your tool list as %s. Call %s with its arguments (tools/list has its parameters).", r.Activated, mcpName(r.Activated), mcpName(r.Activated))
	if name, ok := strings.CutPrefix(r.Activated, "toolyard/"); ok {
		msg = fmt.Sprintf("%s is one of this server's own tools and always listed: call %s.", r.Activated, name)
	}
	return withMessage(raw, msg, func(v map[string]any) {
		if tool, ok := v["tool"].(map[string]any); ok {
			// The help's text and call syntax are for agents writing text;
			// its description, examples and parameters stay.
			delete(tool, "usage")
			delete(tool, "tool_call")
			delete(tool, "text")
		}
	})
}

// anyActive says whether some match is in the session's set already.
func anyActive(r findReply) bool {
	for _, m := range r.Matches {
		if slices.Contains(r.Tools, m.ID) {
			return true
		}
	}
	return false
}

func names(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = mcpName(id)
		if out[i] != id {
			out[i] += " (" + id + ")"
		}
	}
	return strings.Join(out, ", ")
}

// withMessage replaces raw's message (and applies edit, when given).
func withMessage(raw json.RawMessage, msg string, edit func(map[string]any)) json.RawMessage {
	var v map[string]any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	v["message"] = msg
	if edit != nil {
		edit(v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return b
}
