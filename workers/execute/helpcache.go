package execute

import (
	"sync"

	"github.com/toolyard/toolyard/schemas"
)

// helpCache keeps each tool's help, which depends on nothing but the tool's
// manifest, for as long as the registry is unchanged: building it decodes
// the parameter schema and round-trips the text through JSON, more than
// the rest of a help call costs. The registry is reloaded live from the
// tools bucket, so every entry carries the registry generation it was
// built at and is rebuilt once that moves.
type helpCache struct {
	mu sync.RWMutex
	m  map[string]helpEntry
}

type helpEntry struct {
	gen uint64
	v   any
}

const maxCachedHelp = 4096

// toolHelpValue is the help for tool id as the help tool returns it.
func (e *Executor) toolHelpValue(id string) (any, error) {
	gen := e.registryGeneration() // read before the manifest: see Generation
	e.helps.mu.RLock()
	c, ok := e.helps.m[id]
	e.helps.mu.RUnlock()
	if ok && c.gen == gen {
		return copyJSON(c.v), nil
	}
	m, _ := e.manifest(id)
	v, err := buildToolHelp(m)
	if err != nil {
		return nil, err
	}
	e.helps.mu.Lock()
	if e.helps.m == nil || len(e.helps.m) >= maxCachedHelp {
		e.helps.m = map[string]helpEntry{}
	}
	e.helps.m[id] = helpEntry{gen: gen, v: v}
	e.helps.mu.Unlock()
	return copyJSON(v), nil
}

func (e *Executor) registryGeneration() uint64 {
	if e.reg == nil {
		return 0
	}
	return e.reg.Generation()
}

// buildToolHelp is a tool's help in the plain JSON shapes it has after
// transport (see jsonValue).
func buildToolHelp(m schemas.Manifest) (any, error) {
	ps, err := describeParams(m)
	if err != nil {
		return nil, err
	}
	return jsonValue(toolHelp(m, ps))
}

// copyJSON copies a plain JSON value (maps, slices and scalars), so a
// caller that changes what it got does not change the cached help.
func copyJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = copyJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = copyJSON(e)
		}
		return out
	}
	return v
}
