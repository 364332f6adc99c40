package discover

import "slices"

// Filter narrows a search to the tools a caller may use. The zero Filter
// admits every tool. Filters never change a tool's score, only whether it
// can appear, so a filtered list is the unfiltered one with tools removed.
type Filter struct {
	// Scope lists tool ids or server names; empty admits all.
	Scope []string
	// Types lists manifest types ("tool", "script", …); empty admits all.
	// A manifest without a type is a "tool".
	Types []string
	// Permissions, when not nil, are the permissions the caller holds: a
	// tool requiring any other is left out. nil checks nothing; an empty
	// non-nil list admits only tools that require none.
	Permissions []string
}

// admit returns the test a tool must pass, nil when every tool passes (so
// that unfiltered searches, the common case, test nothing per tool); the
// engine's availability predicate is part of it. Caller holds the read lock.
func (e *Engine) admit(f Filter) func(*entry) bool {
	var checks []func(*entry) bool
	if len(f.Scope) > 0 {
		scope := f.Scope
		checks = append(checks, func(en *entry) bool {
			return slices.Contains(scope, en.cand.ToolID) || (en.cand.Server != "" && slices.Contains(scope, en.cand.Server))
		})
	}
	if len(f.Types) > 0 {
		types := f.Types
		checks = append(checks, func(en *entry) bool { return slices.Contains(types, en.typ) })
	}
	if f.Permissions != nil {
		held := f.Permissions
		checks = append(checks, func(en *entry) bool {
			for _, p := range en.permissions {
				if !slices.Contains(held, p) {
					return false
				}
			}
			return true
		})
	}
	if avail := e.cfg.available; avail != nil {
		checks = append(checks, func(en *entry) bool { return avail(en.cand.ToolID) })
	}
	if len(checks) == 0 {
		return nil
	}
	return func(en *entry) bool {
		for _, c := range checks {
			if !c(en) {
				return false
			}
		}
		return true
	}
}
