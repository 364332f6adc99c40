package schemas

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Manifest describes one tool in the registry (the registry contract in DESIGN.md).
type Manifest struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	// Parameters is the JSON Schema (an object schema) of the tool's arguments.
	Parameters  json.RawMessage `json:"parameters,omitempty"`
	Keywords    []string        `json:"keywords,omitempty"`
	Examples    []string        `json:"examples,omitempty"`
	Type        string          `json:"type,omitempty"`
	Server      string          `json:"server,omitempty"`
	Executor    *Executor       `json:"executor,omitempty"`
	Permissions []string        `json:"permissions,omitempty"`
	Version     string          `json:"version,omitempty"`
	// Signature is set by `toolyard tools sign`; workers run with
	// --require-signed refuse tools without a valid one.
	Signature *Signature `json:"signature,omitempty"`
}

// ServerName is the tool's server: the explicit field, else the namespace of a
// namespaced id ("maps/scrape" → "maps").
func (m *Manifest) ServerName() string {
	if m.Server != "" {
		return m.Server
	}
	if i := strings.LastIndexByte(m.ID, '/'); i > 0 {
		return m.ID[:i]
	}
	return ""
}

// Executor kinds.
const (
	ExecBuiltin    = "builtin"
	ExecSubprocess = "subprocess"
	// ExecTool delegates to another tool of the registry.
	ExecTool = "tool"
	// ExecHTTP sends an HTTP request built from templates.
	ExecHTTP = "http"
	// ExecNATS sends a NATS request (a tool implemented as a NATS service).
	ExecNATS = "nats"
	// ExecMCP calls a tool on an MCP server.
	ExecMCP = "mcp"
)

// Executor says how a tool runs.
type Executor struct {
	Kind string `json:"kind"`
	// Builtin names the builtin meta-tool (kind builtin).
	Builtin string `json:"builtin,omitempty"`
	// Argv is the command line (kind subprocess); "{name}" in an element is
	// replaced by the parameter's value, and an element that is only a
	// placeholder for an absent optional parameter is dropped.
	Argv []string `json:"argv,omitempty"`
	Dir  string   `json:"dir,omitempty"`
	// Env lists the environment variables passed through to the process; no
	// others are. For kind http, the variables {env.NAME} placeholders may
	// read (secrets such as API keys); NAME=value fixes a value.
	Env []string `json:"env,omitempty"`
	// Files lists the files the tool sources or executes besides its
	// entry point (libraries, helper scripts, configuration it runs):
	// absolute, or relative to Dir. A signature covers their sha256, and a
	// worker refuses the tool when one changed or is gone.
	Files          []string `json:"files,omitempty"`
	Timeout        Duration `json:"timeout,omitempty"`
	MaxOutputBytes int      `json:"max_output_bytes,omitempty"`
	// Tool is the id of the tool this one delegates to (kind tool), or the
	// tool's name on the MCP server (kind mcp).
	Tool string `json:"tool,omitempty"`

	// Method, URL, Headers and Body are the request templates (kind http);
	// "{name}" is replaced by the parameter's value, escaped for where it
	// lands (path segment, query, header, JSON body).
	Method  string            `json:"method,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body,omitempty"`
	// AllowedHosts lists the hosts (host or host:port) an http tool may reach;
	// a request to any other host is refused.
	AllowedHosts []string `json:"allowed_hosts,omitempty"`

	// Subject is the request subject (kind nats).
	Subject string `json:"subject,omitempty"`

	// Command starts an MCP server over stdio (kind mcp); URL, when set
	// instead, reaches one over streamable HTTP.
	Command []string `json:"command,omitempty"`
}

// UnmarshalJSON accepts the object form or a bare string naming the tool this
// one delegates to.
func (e *Executor) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*e = Executor{Kind: ExecTool, Tool: s}
		return nil
	}
	type plain Executor
	return json.Unmarshal(b, (*plain)(e))
}

// Duration is a time.Duration written in JSON as a Go duration string ("5s").
type Duration time.Duration

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON reads a duration string or a number of milliseconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("duration %q: %w", s, err)
		}
		*d = Duration(v)
		return nil
	}
	var ms float64
	if err := json.Unmarshal(b, &ms); err != nil {
		return fmt.Errorf("duration must be a string like \"5s\" or milliseconds: %s", b)
	}
	*d = Duration(time.Duration(ms * float64(time.Millisecond)))
	return nil
}
