package execute

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// runBuiltin runs a meta-tool. params are validated against the builtin's
// schema and carry its defaults.
func (e *Executor) runBuiltin(ctx context.Context, name string, call schemas.ToolCall, params map[string]any) (any, error) {
	switch name {
	case schemas.MetaSearch:
		return e.searchTools(ctx, params)
	case schemas.MetaLoad:
		return e.loadTool(ctx, call, params)
	case schemas.MetaHelp:
		return e.help(ctx, call, params)
	case BuiltinFind:
		return e.findTools(ctx, call, params)
	case BuiltinActivate:
		return e.activate(ctx, call, params)
	}
	return nil, badCall(ErrUnsupported, "tool %s names builtin %q, which this worker does not have (builtins: search, load, help, find_tools, activate)", call.ToolID, name)
}

func (e *Executor) searchTools(ctx context.Context, params map[string]any) (any, error) {
	query, _ := params["query"].(string)
	k := intParam(params["k"], DefaultSearchK)
	k = min(max(k, 1), MaxSearchK)
	hits, err := e.find(ctx, query, k)
	if err != nil {
		return nil, err
	}
	out := make([]any, 0, len(hits))
	for _, c := range hits {
		out = append(out, map[string]any{
			"id": c.ToolID, "name": c.Name, "description": c.Description, "confidence": c.Confidence,
		})
	}
	return out, nil
}

// find runs the configured search, or the plain term match when none is.
func (e *Executor) find(ctx context.Context, query string, k int) ([]schemas.Candidate, error) {
	if e.search == nil {
		return e.localSearch(query, k), nil
	}
	hits, err := e.search(ctx, query, k)
	if err != nil {
		if ctx.Err() != nil {
			return nil, transient(fmt.Errorf("search %q: %w", query, ctx.Err()))
		}
		return nil, transient(fmt.Errorf("search %q: %w", query, err))
	}
	if len(hits) > k {
		hits = hits[:k]
	}
	return hits, nil
}

// target is the tool a load or help call is about: the id in item_id —
// which may come from free text, so any word of it that is a tool id will
// do — else the call's own tool id unless that is the meta-tool itself.
// named is what item_id held when it named no tool.
func (e *Executor) target(call schemas.ToolCall, params map[string]any, self string) (id, named string) {
	item, _ := params["item_id"].(string)
	item = strings.TrimSpace(item)
	if item != "" {
		if _, ok := e.manifest(item); ok {
			return item, ""
		}
		for _, w := range strings.Fields(item) {
			w = strings.Trim(w, ".,;:!?()[]{}\"'`")
			if _, ok := e.manifest(w); ok {
				return w, ""
			}
		}
		return "", item
	}
	if call.ToolID != "" && call.ToolID != self {
		return call.ToolID, ""
	}
	return "", ""
}

func (e *Executor) loadTool(ctx context.Context, call schemas.ToolCall, params map[string]any) (any, error) {
	id, named := e.target(call, params, LoadID)
	if id == "" {
		if named == "" {
			return nil, badCall(ErrBadCall, "load needs item_id, the id of the tool to show, e.g. [TOOL: show the manifest of files/checksum]")
		}
		return nil, badCall(ErrUnknownTool, "no tool %q in the registry%s", named, e.didYouMean(ctx, named))
	}
	m, _ := e.manifest(id)
	return jsonValue(m)
}

// didYouMean suggests close tool ids for a name that is none, when search
// is at hand; a failing search only loses the suggestion.
func (e *Executor) didYouMean(ctx context.Context, name string) string {
	// Ids are written with separators ("system/disk_usage"); search words.
	query := strings.Map(func(r rune) rune {
		if strings.ContainsRune("/_-.", r) {
			return ' '
		}
		return r
	}, name)
	hits, err := e.find(ctx, query, 3)
	if err != nil || len(hits) == 0 {
		return "; find the right id with [TOOL: search for tools that …]"
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ToolID
	}
	return "; did you mean " + strings.Join(ids, ", ") + "?"
}

// jsonValue converts v to the plain JSON shapes (maps, slices, float64) it
// will have after transport, so in-process readers see what remote ones do.
func jsonValue(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode builtin output: %w", err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("decode builtin output: %w", err)
	}
	return out, nil
}

func intParam(v any, def int) int {
	switch x := v.(type) {
	case int:
		return x
	case int64:
		return int(x)
	case float64:
		return int(x)
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return int(n)
		}
	}
	return def
}
