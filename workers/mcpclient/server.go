package mcpclient

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// Server says how to reach an MCP server: Command (stdio) or URL (streamable
// HTTP), never both.
type Server struct {
	// Command starts the server; it speaks MCP on its stdin and stdout.
	Command []string `json:"command,omitempty"`
	// Env lists the environment variables the server process gets from the
	// worker (names) or fixed (NAME=value), on top of PATH, HOME, LANG,
	// LC_ALL and TZ; nothing else of the worker's environment is passed.
	Env []string `json:"env,omitempty"`
	// Dir is the server process's working directory (absolute); empty: the
	// worker's.
	Dir string `json:"dir,omitempty"`
	// URL is the streamable HTTP endpoint.
	URL string `json:"url,omitempty"`
}

// ServerOf is the server an mcp executor names.
func ServerOf(x *schemas.Executor) (Server, error) {
	if x == nil {
		return Server{}, fmt.Errorf("no executor")
	}
	s := Server{Command: x.Command, Env: x.Env, Dir: x.Dir, URL: x.URL}
	return s, s.Check()
}

// Check reports what is wrong with the server's address.
func (s Server) Check() error {
	switch {
	case len(s.Command) > 0 && s.URL != "":
		return fmt.Errorf("an MCP server has a command (stdio) or a url (streamable HTTP), not both")
	case len(s.Command) > 0:
		if strings.TrimSpace(s.Command[0]) == "" {
			return fmt.Errorf("MCP server command %q: empty program name", s.Command)
		}
		if s.Dir != "" && !strings.HasPrefix(s.Dir, "/") {
			return fmt.Errorf("MCP server dir %q must be an absolute path", s.Dir)
		}
		return nil
	case s.URL != "":
		u, err := url.Parse(s.URL)
		if err != nil {
			return fmt.Errorf("MCP server url %q: %w", s.URL, err)
		}
		if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
			return fmt.Errorf("MCP server url %q: want http(s)://host[:port]/path", s.URL)
		}
		return nil
	}
	return fmt.Errorf("an MCP server needs a command (stdio) or a url (streamable HTTP)")
}

// Key identifies the server in the pool: calls to equal keys share a session.
func (s Server) Key() string {
	b, _ := json.Marshal(s)
	return string(b)
}

// String names the server for messages.
func (s Server) String() string {
	if s.URL != "" {
		return s.URL
	}
	return strings.Join(s.Command, " ")
}

// baseEnv is what every server process gets from the worker's environment.
var baseEnv = []string{"PATH", "HOME", "LANG", "LC_ALL", "TZ"}

// environ is the server process's environment: the base names, then the
// server's own entries.
func (s Server) environ() []string {
	vals := map[string]string{}
	var order []string
	set := func(k, v string) {
		if _, ok := vals[k]; !ok {
			order = append(order, k)
		}
		vals[k] = v
	}
	for _, names := range [][]string{baseEnv, s.Env} {
		for _, n := range names {
			if k, v, ok := strings.Cut(n, "="); ok {
				if k != "" {
					set(k, v)
				}
				continue
			}
			if v, ok := os.LookupEnv(n); ok {
				set(n, v)
			}
		}
	}
	if _, ok := vals["PATH"]; !ok {
		set("PATH", "/usr/local/bin:/usr/bin:/bin")
	}
	out := make([]string, 0, len(order))
	for _, k := range order {
		out = append(out, k+"="+vals[k])
	}
	return out
}
