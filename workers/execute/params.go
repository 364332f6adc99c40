package execute

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"sync"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/resolve"
)

// paramInfo is what execution needs of a tool's parameter schema.
type paramInfo struct {
	check    *schemas.ParamSchema
	defaults map[string]any
	required map[string]bool
	props    map[string]bool
	paths    map[string][]string // parameters that take paths, by dotted name (confine.go)
}

// paramCache keeps compiled schemas by tool id while the manifest's
// parameter document is unchanged: compiling costs more than most calls.
type paramCache struct {
	mu sync.Mutex
	m  map[string]paramEntry
}

type paramEntry struct {
	raw  []byte
	info *paramInfo
}

const maxCachedSchemas = 4096

func (c *paramCache) get(m schemas.Manifest) (*paramInfo, error) {
	c.mu.Lock()
	e, ok := c.m[m.ID]
	c.mu.Unlock()
	if ok && bytes.Equal(e.raw, m.Parameters) {
		return e.info, nil
	}
	info, err := compileInfo(m)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]paramEntry{}
	}
	if len(c.m) >= maxCachedSchemas {
		for k := range c.m {
			delete(c.m, k)
			break
		}
	}
	c.m[m.ID] = paramEntry{raw: bytes.Clone(m.Parameters), info: info}
	c.mu.Unlock()
	return info, nil
}

func compileInfo(m schemas.Manifest) (*paramInfo, error) {
	check, err := schemas.CompileParams(m.ID, m.Parameters)
	if err != nil {
		return nil, badCall(ErrUnsupported, "tool %s cannot be called: %w", m.ID, err)
	}
	info := &paramInfo{check: check, defaults: map[string]any{}, required: map[string]bool{}, props: map[string]bool{}}
	if len(bytes.TrimSpace(m.Parameters)) == 0 {
		return info, nil
	}
	var doc struct {
		Properties map[string]struct {
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(m.Parameters, &doc); err != nil {
		return nil, badCall(ErrUnsupported, "tool %s: parameters: %w", m.ID, err)
	}
	for name, p := range doc.Properties {
		info.props[name] = true
		if len(p.Default) > 0 {
			var v any
			if err := json.Unmarshal(p.Default, &v); err == nil {
				info.defaults[name] = v
			}
		}
	}
	for _, r := range doc.Required {
		info.required[r] = true
	}
	info.paths = pathParams(m.Parameters)
	return info, nil
}

// prepare validates a call's parameters against m's schema and returns
// them with the schema's defaults filled in. String values are first
// converted to the declared types, because the XML form of a direct
// <tool_call> carries nothing but strings.
func (e *Executor) prepare(m schemas.Manifest, params map[string]any) (map[string]any, *paramInfo, error) {
	info, err := e.schemas.get(m)
	if err != nil {
		return nil, nil, err
	}
	params, err = resolve.Coerce(m, params)
	if err != nil {
		var ie *resolve.InvalidError
		if errors.As(err, &ie) {
			return nil, nil, badCall(ErrInvalidParameters, "%w", err)
		}
		return nil, nil, badCall(ErrUnsupported, "tool %s cannot be called: %w", m.ID, err)
	}
	if err := info.check.Validate(params); err != nil {
		return nil, nil, badCall(ErrInvalidParameters, "tool %s: invalid parameters: %w", m.ID, err)
	}
	out := make(map[string]any, len(params)+len(info.defaults))
	maps.Copy(out, info.defaults)
	maps.Copy(out, params)
	return out, info, nil
}
