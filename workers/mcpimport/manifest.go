package mcpimport

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/mcpclient"
)

// Source is the server a sync imports from and how its tools are named.
type Source struct {
	// Name is the namespace: tool t becomes Name/t.
	Name   string
	Server mcpclient.Server
	// Timeout is the executors' call timeout; zero leaves the executor's
	// default.
	Timeout time.Duration
	// Headers are the executors' HTTP headers as written: {env.NAME} is
	// filled in by each worker (see mcpclient.ServerOf), so a secret is
	// never stored in the registry.
	Headers map[string]string
}

// Connect is the server to list tools from, headers resolved here.
func (s Source) Connect() (mcpclient.Server, error) {
	return mcpclient.ServerOf(&schemas.Executor{Kind: schemas.ExecMCP, Command: s.Server.Command, URL: s.Server.URL,
		Env: s.Server.Env, Dir: s.Server.Dir, Headers: s.Headers})
}

// Check reports what is wrong with the source.
func (s Source) Check() error {
	if strings.TrimSpace(s.Name) == "" || strings.ContainsAny(s.Name, "/ \t\n") {
		return fmt.Errorf("import name %q: want one word without slashes or spaces (the tools become NAME/<tool>)", s.Name)
	}
	return s.Server.Check()
}

// Manifest is the registry manifest of one server tool, validated like
// every manifest the registry accepts.
func (s Source) Manifest(t *mcp.Tool) (schemas.Manifest, error) {
	if t == nil || strings.TrimSpace(t.Name) == "" {
		return schemas.Manifest{}, fmt.Errorf("server %s listed a tool without a name", s.Server)
	}
	desc := strings.TrimSpace(t.Description)
	title := strings.TrimSpace(t.Title)
	if title == "" && t.Annotations != nil {
		title = strings.TrimSpace(t.Annotations.Title)
	}
	if desc == "" {
		desc = title
	}
	if desc == "" {
		desc = fmt.Sprintf("Tool %s of the MCP server %s", t.Name, s.Name)
	}
	m := schemas.Manifest{
		ID: s.Name + "/" + t.Name, Name: t.Name, Description: desc, Server: s.Name,
		Executor: &schemas.Executor{Kind: schemas.ExecMCP, Tool: t.Name, Command: s.Server.Command,
			URL: s.Server.URL, Env: s.Server.Env, Dir: s.Server.Dir, Headers: s.Headers, Timeout: schemas.Duration(s.Timeout)},
	}
	if title != "" && !strings.EqualFold(title, t.Name) {
		m.Keywords = []string{title}
	}
	m.Permissions = annotationPermissions(t.Annotations)
	if t.InputSchema != nil {
		raw, err := json.Marshal(t.InputSchema)
		if err != nil {
			return m, fmt.Errorf("tool %s: input schema: %w", m.ID, err)
		}
		m.Parameters = raw
	}
	// Round-trip through the registry's own validation: what is imported is
	// exactly what the registry would accept from a file.
	raw, err := json.Marshal(m)
	if err != nil {
		return m, fmt.Errorf("tool %s: %w", m.ID, err)
	}
	v, err := schemas.ValidateManifest(raw)
	if err != nil {
		return m, fmt.Errorf("tool %s: %w", m.ID, err)
	}
	return v, nil
}

// owns reports whether m was made by a sync of this source.
func (s Source) owns(m schemas.Manifest) bool {
	if !strings.HasPrefix(m.ID, s.Name+"/") || m.Executor == nil || m.Executor.Kind != schemas.ExecMCP {
		return false
	}
	srv, err := mcpclient.ServerOf(m.Executor)
	return err == nil && sameServer(srv, s.Server)
}

// sameServer compares addresses, not settings: a re-import with another
// environment or timeout still owns the tools it made.
func sameServer(a, b mcpclient.Server) bool {
	if a.URL != "" || b.URL != "" {
		return a.URL == b.URL
	}
	return strings.Join(a.Command, "\x00") == strings.Join(b.Command, "\x00")
}

// Permissions an MCP tool's annotations declare, so an execute worker's
// deny-by-default gate (write, delete, network) sees what the server says
// the tool does: not read-only → mcp.write; destructive (the MCP default
// when not read-only) → mcp.delete; open world said outright →
// mcp.network. A tool without annotations declares nothing, like any
// manifest without permissions.
func annotationPermissions(a *mcp.ToolAnnotations) []string {
	if a == nil {
		return nil
	}
	var perms []string
	if !a.ReadOnlyHint {
		perms = append(perms, PermWrite)
		if a.DestructiveHint == nil || *a.DestructiveHint {
			perms = append(perms, PermDelete)
		}
	}
	if a.OpenWorldHint != nil && *a.OpenWorldHint {
		perms = append(perms, PermNetwork)
	}
	return perms
}

// The permissions annotations map to.
const (
	PermWrite   = "mcp.write"
	PermDelete  = "mcp.delete"
	PermNetwork = "mcp.network"
)
