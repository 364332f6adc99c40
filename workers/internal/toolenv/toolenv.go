// Package toolenv builds the environment of a tool's process (a subprocess
// tool or a stdio MCP server) from allowlists, so nothing of the worker's
// environment reaches a tool unless something names it.
package toolenv

import (
	"os"
	"strings"
)

// Base is what every tool process gets from the worker's environment:
// enough to find commands and speak the right locale, nothing secret.
var Base = []string{"PATH", "HOME", "LANG"}

// DefaultPath is used when the worker itself has no PATH.
const DefaultPath = "/usr/local/bin:/usr/bin:/bin"

// Builder assembles an environment; a later setting of a name wins, and
// names keep the order they were first set in.
type Builder struct {
	vals  map[string]string
	order []string
}

// New starts an environment with the Base names and a PATH.
func New() *Builder {
	b := &Builder{vals: map[string]string{}}
	b.Pass(Base)
	if _, ok := b.vals["PATH"]; !ok {
		b.Set("PATH", DefaultPath)
	}
	return b
}

// Set sets name to value.
func (b *Builder) Set(name, value string) {
	if _, ok := b.vals[name]; !ok {
		b.order = append(b.order, name)
	}
	b.vals[name] = value
}

// Pass applies allowlist entries: a NAME passes the worker's value through
// (when it has one), a NAME=value sets it.
func (b *Builder) Pass(entries []string) {
	for _, n := range entries {
		if k, v, ok := strings.Cut(n, "="); ok {
			if k != "" {
				b.Set(k, v)
			}
			continue
		}
		if v, ok := os.LookupEnv(n); ok {
			b.Set(n, v)
		}
	}
}

// Environ is the environment in os/exec's NAME=value form.
func (b *Builder) Environ() []string {
	out := make([]string, 0, len(b.order))
	for _, k := range b.order {
		out = append(out, k+"="+b.vals[k])
	}
	return out
}

// Value looks name up the way Pass would: listed says whether the entries
// name it at all, ok whether it then has a value.
func Value(name string, entries []string) (value string, listed, ok bool) {
	for _, e := range entries {
		k, v, fixed := strings.Cut(e, "=")
		if k != name {
			continue
		}
		if fixed {
			return v, true, true
		}
		v, ok := os.LookupEnv(name)
		return v, true, ok
	}
	return "", false, false
}
