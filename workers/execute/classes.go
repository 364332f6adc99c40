package execute

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// Risk classes: what a tool can do beyond reading. A session runs tools of
// these classes only when the operator grants them (WithGrants, the
// --allow flag) or its policy does (Policy.Grant, SessionRule.Grant, or an
// allowlist entry naming the permission). Reading and the meta-tools need
// no grant.
const (
	ClassWrite   = "write"
	ClassDelete  = "delete"
	ClassNetwork = "network"
)

// Classes are the risk classes, in the order messages list them.
var Classes = []string{ClassWrite, ClassDelete, ClassNetwork}

// classWords map a word of a permission name to its class. A permission
// name is split at '.', ':', '/', '-' and '_' ("fs.write", "slack:write",
// "net:internet", "files/delete"); the first word that names a class
// decides. Words not listed (read, list, get, dns lookups aside) are
// read-only.
var classWords = map[string]string{
	"write": ClassWrite, "writes": ClassWrite, "create": ClassWrite, "update": ClassWrite,
	"modify": ClassWrite, "edit": ClassWrite, "send": ClassWrite, "post": ClassWrite,
	"publish": ClassWrite, "exec": ClassWrite, "execute": ClassWrite, "admin": ClassWrite,
	"append": ClassWrite, "upload": ClassWrite, "move": ClassWrite, "rename": ClassWrite,
	"delete": ClassDelete, "remove": ClassDelete, "rm": ClassDelete, "destroy": ClassDelete,
	"purge": ClassDelete, "erase": ClassDelete, "drop": ClassDelete, "truncate": ClassDelete,
	"net": ClassNetwork, "network": ClassNetwork, "internet": ClassNetwork, "http": ClassNetwork,
	"https": ClassNetwork, "dns": ClassNetwork, "web": ClassNetwork, "socket": ClassNetwork,
}

// ClassOf is the risk class of a declared permission, "" for read-only.
// "fs.write" → write, "crm:delete" → delete, "net:internet" → network,
// "fs.read" → "".
func ClassOf(permission string) string {
	words := strings.FieldsFunc(strings.ToLower(permission), func(r rune) bool {
		return r == '.' || r == ':' || r == '/' || r == '-' || r == '_'
	})
	for _, w := range words {
		if c, ok := classWords[w]; ok {
			return c
		}
	}
	return ""
}

// need is one thing a tool does that needs a grant: the permission that
// says so (or the executor kind that implies it) and its class.
type need struct {
	class      string
	permission string // declared permission; "" when implied by the executor
	implied    string // why, when no permission says so
}

func (n need) String() string {
	if n.permission != "" {
		return fmt.Sprintf("%s (permission %s)", n.class, n.permission)
	}
	return fmt.Sprintf("%s (%s)", n.class, n.implied)
}

// needsOf lists the grants m needs: its declared permissions of a risk
// class, and network for executors that reach other hosts (http, an MCP
// server over HTTP) whatever they declare. A tool that declares nothing
// and runs locally is treated as read-only: registering tools is an
// admin's act, and its permissions are covered by its signature.
func needsOf(m schemas.Manifest) []need {
	var out []need
	for _, p := range m.Permissions {
		if c := ClassOf(p); c != "" {
			out = append(out, need{class: c, permission: p})
		}
	}
	if x := m.Executor; x != nil {
		reaches := x.Kind == schemas.ExecHTTP || x.Kind == schemas.ExecMCP && x.URL != "" && len(x.Command) == 0
		if reaches && !slices.ContainsFunc(out, func(n need) bool { return n.class == ClassNetwork }) {
			out = append(out, need{class: ClassNetwork, implied: x.Kind + " executor"})
		}
	}
	return out
}

// ParseGrants reads grant lists as the --allow flag takes them: class
// names (write, delete, network), "all" for every class, "none" or "" for
// none. Unknown names are an error naming the valid ones.
func ParseGrants(list []string) ([]string, error) {
	var out []string
	for _, g := range list {
		g = strings.ToLower(strings.TrimSpace(g))
		switch {
		case g == "" || g == "none" || g == "read":
			continue
		case g == "all" || g == "*":
			return slices.Clone(Classes), nil
		case slices.Contains(Classes, g):
			if !slices.Contains(out, g) {
				out = append(out, g)
			}
		default:
			return nil, fmt.Errorf("unknown grant %q: want %s, all or none", g, strings.Join(Classes, ", "))
		}
	}
	return out, nil
}

// WithGrants grants every session the given risk classes (write, delete,
// network; see ParseGrants). Without it a session runs only read-only and
// meta tools, unless its policy grants more.
func WithGrants(classes ...string) Option {
	return func(c *config) { c.guard.grants = append(c.guard.grants, classes...) }
}
