package execute

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// Ids and builtin names of the session meta-tools.
const (
	FindToolsID     = schemas.MetaFindToolsID
	ActivateID      = schemas.MetaActivateID
	BuiltinFind     = "find_tools"
	BuiltinActivate = "activate"
)

// SessionTools is the store of sessions' active tool sets that find_tools
// and activate grow (workers/session.Store).
type SessionTools interface {
	Get(ctx context.Context, session string) (schemas.ToolSet, error)
	Add(ctx context.Context, session string, tools ...schemas.ActiveTool) (schemas.ToolSet, []string, error)
}

// Sessions configures the session meta-tools.
type Sessions struct {
	Store SessionTools
	// Search finds tools for find_tools; it must fail rather than degrade
	// (see session.SearchFunc). nil uses the executor's search.
	Search func(ctx context.Context, query string, k int, scope []string) ([]schemas.Candidate, error)
	// MinConfidence is what a found tool needs to join the set (0.3 when 0).
	MinConfidence float64
}

// WithSessions backs find_tools and activate with a session store. Without
// it they answer that this worker keeps no session tool sets.
func WithSessions(s Sessions) Option {
	return func(c *config) {
		if s.MinConfidence == 0 {
			s.MinConfidence = 0.3
		}
		c.sessions = &s
	}
}

func sessionManifests() []schemas.Manifest {
	return []schemas.Manifest{
		{
			ID:   FindToolsID,
			Name: "Find tools",
			Description: "Look for tools that suit a task described in plain words and put the best ones in this session's active tools, " +
				"so they can be called directly. Returns the matches with their confidence and the session's tools.",
			Parameters: json.RawMessage(`{"type":"object","required":["query"],"properties":{` +
				`"query":{"type":"string","minLength":1,"description":"What the tools should do, in plain words","examples":["resize images"],"x-toolyard-freetext":true},` +
				`"k":{"type":"integer","minimum":1,"maximum":50,"default":5,"description":"How many tools to look at"}}}`),
			Keywords: []string{"find tools", "find_tools", "more tools", "session tools", "tool set"},
			Examples: []string{"find_tools for this task", "find tools for this session"},
			Type:     "tool",
			Executor: &schemas.Executor{Kind: schemas.ExecBuiltin, Builtin: BuiltinFind},
			Version:  "1",
		},
		{
			ID:   ActivateID,
			Name: "Activate tool",
			Description: "Activate a tool by its id for this session: it joins the session's active tools, " +
				"with its parameters, an example intent and a direct <tool_call> to call it.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` +
				`"item_id":{"type":"string","minLength":1,"description":"Id of the tool to activate, e.g. files/checksum","examples":["files/checksum"],"x-toolyard-freetext":true},` +
				`"id":{"type":"string","minLength":1,"description":"Same as item_id"}}}`),
			Keywords: []string{"activate", "activate tool", "enable tool", "select tool", "choose tool"},
			Examples: []string{"activate files/checksum", "activate system/uptime"},
			Type:     "tool",
			Executor: &schemas.Executor{Kind: schemas.ExecBuiltin, Builtin: BuiltinActivate},
			Version:  "1",
		},
	}
}

func (e *Executor) sessionStore(call schemas.ToolCall, name string) (*Sessions, error) {
	if e.cfg.sessions == nil {
		return nil, badCall(ErrUnsupported, "%s needs session tool sets, which this worker does not keep (start it with sessions on)", name)
	}
	if call.SessionID == "" {
		return nil, badCall(ErrBadCall, "%s needs the call's session_id", name)
	}
	return e.cfg.sessions, nil
}

// findTools searches and adds the matches at or above the floor to the
// session's set. The scope of the call bounds both.
func (e *Executor) findTools(ctx context.Context, call schemas.ToolCall, params map[string]any) (any, error) {
	s, err := e.sessionStore(call, BuiltinFind)
	if err != nil {
		return nil, err
	}
	query := strings.TrimSpace(stringParam(params, "query"))
	if query == "" {
		return nil, badCall(ErrBadCall, "find_tools needs a query saying what the tools should do, e.g. [TOOL: find_tools resize images]")
	}
	k := min(max(intParam(params["k"], DefaultSearchK), 1), MaxSearchK)
	var hits []schemas.Candidate
	if s.Search != nil {
		hits, err = s.Search(ctx, query, k, call.Scope)
		if err != nil {
			if ctx.Err() != nil {
				return nil, transient(fmt.Errorf("find_tools %q: %w", query, ctx.Err()))
			}
			// Fail safe: nothing is added when discovery cannot be trusted.
			return nil, transient(fmt.Errorf("find_tools %q: discovery failed, so no tools were added: %w", query, err))
		}
	} else if hits, err = e.find(ctx, query, k); err != nil {
		return nil, err
	}
	var add []schemas.ActiveTool
	var nearMiss *schemas.Candidate
	matches := make([]any, 0, len(hits))
	for _, c := range hits {
		if !admitted(c.ToolID, c.Server, call.Scope) {
			continue
		}
		m := map[string]any{"id": c.ToolID, "name": c.Name, "description": c.Description,
			"server": c.Server, "confidence": c.Confidence, "match_type": c.MatchType}
		if c.Mismatch != nil {
			m["mismatch"] = c.Mismatch
		}
		matches = append(matches, m)
		if c.Confidence < s.MinConfidence || e.isBuiltin(c.ToolID) {
			continue
		}
		// A tool that says it does another kind of thing than the query
		// asks ("delete the message", a tool that posts) is not added.
		if c.Mismatch != nil {
			if nearMiss == nil {
				nearMiss = &c
			}
			continue
		}
		add = append(add, activeFrom(c, schemas.SourceFindTools))
	}
	set, added, err := s.Store.Add(ctx, call.SessionID, add...)
	if err != nil {
		return nil, transient(fmt.Errorf("find_tools: session %s: %w", call.SessionID, err))
	}
	msg := fmt.Sprintf("Added %d tool(s) to your session: %s.", len(added), strings.Join(added, ", "))
	switch {
	case len(matches) == 0:
		msg = fmt.Sprintf("No tool matched %q; describe the task differently.", query)
	case len(added) == 0 && len(add) > 0:
		msg = "The matching tools were already in your session."
	case len(add) == 0 && nearMiss != nil:
		msg = fmt.Sprintf("No tool here says it can %s as %q asks: %s says it can %s. None added; activate one by id with [TOOL: activate <id>] if it is right anyway.",
			nearMiss.Mismatch.AskedText(), query, nearMiss.ToolID, nearMiss.Mismatch.NamesText())
	case len(add) == 0:
		msg = fmt.Sprintf("Only weak matches for %q, none added; activate one by id with [TOOL: activate <id>] if it is right.", query)
	}
	return jsonValue(map[string]any{"query": query, "matches": matches, "added": nonNil(added),
		"tools": set.IDs(), "message": msg})
}

// activate adds the named tool to the session's set and explains how to call it.
func (e *Executor) activate(ctx context.Context, call schemas.ToolCall, params map[string]any) (any, error) {
	s, err := e.sessionStore(call, BuiltinActivate)
	if err != nil {
		return nil, err
	}
	if id := stringParam(params, "id"); id != "" && stringParam(params, "item_id") == "" {
		params["item_id"] = id
	}
	id, named := e.target(call, params, ActivateID)
	if id == "" {
		if named == "" {
			return nil, badCall(ErrBadCall, "activate needs the id of the tool, e.g. [TOOL: activate files/checksum]")
		}
		return nil, badCall(ErrUnknownTool, "no tool %q in the registry%s", named, e.didYouMean(ctx, named))
	}
	m, _ := e.manifest(id)
	if !admitted(m.ID, m.ServerName(), call.Scope) {
		return nil, badCall(ErrBadCall, "tool %s is outside this session's scope (%s)", m.ID, strings.Join(call.Scope, ", "))
	}
	ps, err := describeParams(m)
	if err != nil {
		return nil, err
	}
	doc := toolHelp(m, ps)
	if e.isBuiltin(m.ID) {
		set, err := s.Store.Get(ctx, call.SessionID)
		if err != nil {
			return nil, transient(fmt.Errorf("activate: session %s: %w", call.SessionID, err))
		}
		return jsonValue(map[string]any{"activated": m.ID, "tool": doc, "tools": set.IDs(),
			"message": m.ID + " is a meta-tool and always available. " + doc["usage"].(string)})
	}
	t := schemas.ActiveTool{ID: m.ID, Name: m.Name, Description: m.Description, Keywords: m.Keywords,
		Server: m.ServerName(), Confidence: 1, Source: schemas.SourceActivate}
	set, _, err := s.Store.Add(ctx, call.SessionID, t)
	if err != nil {
		return nil, transient(fmt.Errorf("activate: session %s: %w", call.SessionID, err))
	}
	return jsonValue(map[string]any{"activated": m.ID, "tool": doc, "tools": set.IDs(),
		"message": fmt.Sprintf("%s is active in your session. Call it as %s or %s", m.ID, doc["usage"], doc["tool_call"])})
}

func (e *Executor) isBuiltin(id string) bool {
	_, ok := e.builtins[id]
	return ok
}

func activeFrom(c schemas.Candidate, source string) schemas.ActiveTool {
	return schemas.ActiveTool{ID: c.ToolID, Name: c.Name, Description: c.Description, Keywords: slices.Clone(c.Keywords),
		Server: c.Server, Confidence: c.Confidence, Source: source}
}

// admitted reports whether scope (ids or servers; empty admits all) admits a tool.
func admitted(id, server string, scope []string) bool {
	return len(scope) == 0 || slices.Contains(scope, id) || (server != "" && slices.Contains(scope, server))
}

func stringParam(params map[string]any, name string) string {
	s, _ := params[name].(string)
	return s
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
