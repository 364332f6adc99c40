package schemas

import "time"

// Catalog summarises what a registry (or a scope of it) offers: how many
// tools each server holds, largest first, so an agent can rephrase toward
// what exists without being handed the whole registry.
type Catalog struct {
	// Tools is how many tools are available in all.
	Tools int `json:"tools"`
	// Servers are the largest servers, most tools first.
	Servers []ServerCount `json:"servers"`
	// MoreServers is how many smaller servers are left out of Servers.
	MoreServers int `json:"more_servers,omitempty"`
}

// ServerCount is one server (the namespace of tool ids "server/tool") and
// how many tools it holds.
type ServerCount struct {
	Server string `json:"server"`
	Tools  int    `json:"tools"`
}

// How a tool joined a session's active set.
const (
	SourceSeed      = "seed"
	SourceFindTools = "find_tools"
	SourceActivate  = "activate"
)

// ActiveTool is one tool of a session's active set.
type ActiveTool struct {
	ID          string   `json:"id"`
	Name        string   `json:"name,omitempty"`
	Description string   `json:"description,omitempty"`
	Keywords    []string `json:"keywords,omitempty"`
	Server      string   `json:"server,omitempty"`
	// Confidence is discovery's confidence when the tool was added (1 for
	// an explicit activation).
	Confidence float64   `json:"confidence"`
	Source     string    `json:"source"`
	Added      time.Time `json:"added"`
}

// ToolSet is a session's active tool set: the tools an agent is shown,
// beside the meta-tools, which are always there.
type ToolSet struct {
	V         int          `json:"v,omitempty"`
	SessionID string       `json:"session_id"`
	Tools     []ActiveTool `json:"tools"`
	// Seeded is set once the session's first output was searched.
	Seeded bool `json:"seeded"`
	// SeedMessage is the id of the output the set was seeded from.
	SeedMessage string `json:"seed_message,omitempty"`
	// Degraded says why seeding added nothing when discovery failed.
	Degraded string `json:"degraded,omitempty"`
	// Created and Updated are left out of a set no session has written
	// yet (a session that never published).
	Created time.Time `json:"created,omitzero"`
	Updated time.Time `json:"updated,omitzero"`
}

// IDs are the ids of the set's tools, in the order they were added.
func (s ToolSet) IDs() []string {
	out := make([]string, len(s.Tools))
	for i, t := range s.Tools {
		out[i] = t.ID
	}
	return out
}

// Has reports whether the set holds the tool id.
func (s ToolSet) Has(id string) bool {
	for _, t := range s.Tools {
		if t.ID == id {
			return true
		}
	}
	return false
}
