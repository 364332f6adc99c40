package execute

import (
	"context"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// MaxDelegation is how many kind-tool hops a call may follow.
const MaxDelegation = 8

// manifest finds a tool: the registry first, so an operator may override a
// builtin, then the builtins, so the meta-tools work with any registry.
func (e *Executor) manifest(id string) (schemas.Manifest, bool) {
	if e.reg != nil {
		if m, ok := e.reg.Get(id); ok {
			return m, true
		}
	}
	m, ok := e.builtins[id]
	return m, ok
}

// chain follows kind-tool delegation from id to the tool that actually
// runs. The result starts with id's manifest and ends with the runner's.
func (e *Executor) chain(ctx context.Context, id string) ([]schemas.Manifest, error) {
	m, ok := e.manifest(id)
	if !ok {
		return nil, badCall(ErrUnknownTool, "no tool %q in the registry%s", id, e.didYouMean(ctx, id))
	}
	out := []schemas.Manifest{m}
	seen := map[string]bool{id: true}
	for m.Executor != nil && m.Executor.Kind == schemas.ExecTool {
		next := m.Executor.Tool
		path := ids(out)
		switch {
		case next == "":
			return nil, badCall(ErrDelegation, "tool %s delegates to another tool but does not name it (%s)", m.ID, path)
		case seen[next]:
			return nil, badCall(ErrDelegation, "tool %s delegates in a cycle: %s → %s", id, path, next)
		case len(out) > MaxDelegation:
			return nil, badCall(ErrDelegation, "tool %s delegates through more than %d tools: %s → …", id, MaxDelegation, path)
		}
		nm, ok := e.manifest(next)
		if !ok {
			return nil, badCall(ErrDelegation, "tool %s delegates to %q, which is not in the registry (%s → %s)", m.ID, next, path, next)
		}
		seen[next] = true
		out = append(out, nm)
		m = nm
	}
	return out, nil
}

func ids(ms []schemas.Manifest) string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = m.ID
	}
	return strings.Join(s, " → ")
}
