package mcpclient

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/internal/toolenv"
)

// Server says how to reach an MCP server: Command (stdio) or URL (streamable
// HTTP), never both.
type Server struct {
	// Command starts the server; it speaks MCP on its stdin and stdout.
	Command []string `json:"command,omitempty"`
	// Env lists the environment variables the server process gets from the
	// worker (names) or fixed (NAME=value), on top of PATH, HOME and LANG;
	// nothing else of the worker's environment is passed.
	Env []string `json:"env,omitempty"`
	// Dir is the server process's working directory (absolute); empty: the
	// worker's.
	Dir string `json:"dir,omitempty"`
	// URL is the streamable HTTP endpoint.
	URL string `json:"url,omitempty"`
	// Headers go with every HTTP request (resolved: see ServerOf).
	Headers map[string]string `json:"headers,omitempty"`
}

// ServerOf is the server an mcp executor names. In its headers (streamable
// HTTP only), {env.NAME} is the worker's NAME when the executor's env lists
// NAME, or the value env fixes (NAME=value): secrets come from the worker,
// never from the manifest or the agent.
func ServerOf(x *schemas.Executor) (Server, error) {
	if x == nil {
		return Server{}, fmt.Errorf("no executor")
	}
	s := Server{Command: x.Command, Env: x.Env, Dir: x.Dir, URL: x.URL}
	if len(x.Headers) > 0 {
		if s.URL == "" {
			return s, fmt.Errorf("headers are for MCP servers reached by url, not by a command")
		}
		s.Headers = make(map[string]string, len(x.Headers))
		for k, v := range x.Headers {
			val, err := expandEnv(v, x.Env)
			if err != nil {
				return s, fmt.Errorf("header %s: %w", k, err)
			}
			if strings.ContainsAny(k+val, "\r\n\x00") || k == "" {
				return s, fmt.Errorf("header %q: empty name, or CR, LF or NUL in it", k)
			}
			s.Headers[k] = val
		}
	}
	return s, s.Check()
}

// expandEnv replaces {env.NAME} in v.
func expandEnv(v string, env []string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(v, "{env.")
		if i < 0 {
			b.WriteString(v)
			return b.String(), nil
		}
		end := strings.IndexByte(v[i:], '}')
		if end < 0 {
			return "", fmt.Errorf("unclosed {env. in %q", v)
		}
		name := v[i+len("{env.") : i+end]
		val, err := envValue(name, env)
		if err != nil {
			return "", err
		}
		b.WriteString(v[:i])
		b.WriteString(val)
		v = v[i+end+1:]
	}
}

func envValue(name string, env []string) (string, error) {
	v, listed, ok := toolenv.Value(name, env)
	switch {
	case !listed:
		return "", fmt.Errorf("{env.%s} names a variable the executor's env does not list", name)
	case !ok:
		return "", fmt.Errorf("the environment variable %s is not set on this worker", name)
	}
	return v, nil
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

// String names the server for messages (never its headers).
func (s Server) String() string {
	if s.URL != "" {
		return s.URL
	}
	return strings.Join(s.Command, " ")
}

// environ is the server process's environment: the base names, then the
// server's own entries.
func (s Server) environ() []string {
	b := toolenv.New()
	b.Pass(s.Env)
	return b.Environ()
}
