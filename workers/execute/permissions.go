package execute

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
)

// Policy says which permissions the tools a session runs may require.
// A tool declares what it needs in its manifest's permissions ("fs.read",
// "net", …); it runs only if the session's allowlist covers each of them.
//
// An allowlist entry covers the permission of the same name and every
// permission below it: "fs" covers "fs", "fs.read" and "fs.write.tmp";
// "fs.*" covers "fs.read" but not "fs"; "*" covers everything. A tool that
// declares no permissions runs for every session.
//
// The allowlist restricts permission names; the risk classes (write,
// delete, network: see ClassOf) are a second gate, closed by default: a
// tool needing one runs only when the worker grants the class
// (WithGrants), the session's rule or the policy grants it (Grant), or the
// session's allowlist names the permission itself ("fs.write", "fs", "*").
// The zero Policy (or none) restricts no names and grants no class.
type Policy struct {
	// Default is the allowlist of sessions no rule matches. nil allows
	// every name; an empty list allows only tools that need nothing.
	Default []string `json:"default"`
	// Grant is the risk classes granted to sessions no rule matches.
	Grant []string `json:"grant,omitempty"`
	// Sessions are rules by session id, the first match wins.
	Sessions []SessionRule `json:"sessions,omitempty"`
}

// SessionRule gives the sessions whose id matches Match (a path.Match glob
// such as "ci-*") the allowlist Allow.
type SessionRule struct {
	Match string   `json:"match"`
	Allow []string `json:"allow"`
	// Grant is the risk classes (write, delete, network, all) these
	// sessions may use on top of the worker's --allow.
	Grant []string `json:"grant,omitempty"`
}

// LoadPolicy reads a policy file: a JSON object with "default" and
// "sessions" (see Policy).
func LoadPolicy(file string) (*Policy, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("permissions policy: %w", err)
	}
	var p Policy
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("permissions policy %s: %w (want {\"default\": [...], \"grant\": [...], \"sessions\": [{\"match\": \"ci-*\", \"allow\": [...], \"grant\": [\"write\"]}]})", file, err)
	}
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("permissions policy %s: %w", file, err)
	}
	return &p, nil
}

// Check reports a malformed policy: a bad glob, an empty or spaced entry.
func (p *Policy) Check() error {
	if err := checkAllow(p.Default); err != nil {
		return fmt.Errorf("default: %w", err)
	}
	if _, err := ParseGrants(p.Grant); err != nil {
		return fmt.Errorf("grant: %w", err)
	}
	for i, r := range p.Sessions {
		if r.Match == "" {
			return fmt.Errorf("sessions[%d]: match is empty", i)
		}
		if _, err := path.Match(r.Match, ""); err != nil {
			return fmt.Errorf("sessions[%d]: match %q: %w", i, r.Match, err)
		}
		if r.Allow == nil {
			return fmt.Errorf("sessions[%d] (%s): allow is missing (use [] to allow only tools that need no permissions)", i, r.Match)
		}
		if err := checkAllow(r.Allow); err != nil {
			return fmt.Errorf("sessions[%d] (%s): %w", i, r.Match, err)
		}
		if _, err := ParseGrants(r.Grant); err != nil {
			return fmt.Errorf("sessions[%d] (%s): grant: %w", i, r.Match, err)
		}
	}
	return nil
}

func checkAllow(allow []string) error {
	for _, a := range allow {
		if a == "" || strings.ContainsAny(a, " \t\r\n,") {
			return fmt.Errorf("permission %q: names have no spaces or commas", a)
		}
	}
	return nil
}

// Allowed returns the session's allowlist; limited is false when nothing
// is restricted.
func (p *Policy) Allowed(session string) (allow []string, limited bool) {
	if p == nil {
		return nil, false
	}
	for _, r := range p.Sessions {
		if ok, _ := path.Match(r.Match, session); ok {
			return r.Allow, true
		}
	}
	return p.Default, p.Default != nil
}

// Grants returns the risk classes the session's rule (or, when none
// matches, the policy) grants.
func (p *Policy) Grants(session string) []string {
	if p == nil {
		return nil
	}
	for _, r := range p.Sessions {
		if ok, _ := path.Match(r.Match, session); ok {
			g, _ := ParseGrants(r.Grant)
			return g
		}
	}
	g, _ := ParseGrants(p.Grant)
	return g
}

// Missing lists the permissions of need that allow does not cover, in
// need's order, without repeats.
func Missing(allow, need []string) []string {
	var out []string
	for _, n := range need {
		if !covered(allow, n) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func covered(allow []string, need string) bool {
	for _, a := range allow {
		if a == "*" || a == need {
			return true
		}
		if strings.HasPrefix(need, strings.TrimSuffix(a, ".*")+".") {
			return true
		}
	}
	return false
}

// WithPermissions enforces p at call time: a tool needing a permission its
// session's allowlist does not cover is refused (ErrPermissionDenied)
// before anything runs. Without it, permissions are not checked.
func WithPermissions(p *Policy) Option {
	return func(c *config) { c.guard.policy = p }
}
