package execute

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/session"
)

// sessionExecutor runs the session meta-tools against a real sessions
// bucket; search ranks the given tools in order.
func sessionExecutor(t *testing.T, search func(context.Context, string, int, []string) ([]schemas.Candidate, error)) (*Executor, *session.Store) {
	t.Helper()
	env := pipelinetest.Start(t)
	st, err := session.Open(context.Background(), env.JS)
	if err != nil {
		t.Fatal(err)
	}
	tools := []schemas.Manifest{tool("img/resize", `{"type":"object","required":["path"],"properties":{"path":{"type":"string"}}}`, "true"),
		tool("img/crop", "", "true"), tool("mail/send", "", "true")}
	return newExecutor(t, tools, WithSessions(Sessions{Store: st, Search: search})), st
}

func fixedSearch(cs ...schemas.Candidate) func(context.Context, string, int, []string) ([]schemas.Candidate, error) {
	return func(_ context.Context, _ string, k int, scope []string) ([]schemas.Candidate, error) {
		var out []schemas.Candidate
		for _, c := range cs {
			if admitted(c.ToolID, c.Server, scope) && len(out) < k {
				out = append(out, c)
			}
		}
		return out, nil
	}
}

func TestFindToolsGrowsTheSession(t *testing.T) {
	e, st := sessionExecutor(t, fixedSearch(
		schemas.Candidate{ToolID: "img/resize", Server: "img", Confidence: 0.8, MatchType: schemas.MatchHybrid},
		schemas.Candidate{ToolID: SearchID, Server: "toolyard", Confidence: 0.7, MatchType: schemas.MatchHybrid},
		schemas.Candidate{ToolID: "img/crop", Server: "img", Confidence: 0.5, MatchType: schemas.MatchHybrid},
		schemas.Candidate{ToolID: "mail/send", Server: "mail", Confidence: 0.1, MatchType: schemas.MatchHybrid},
	))
	out, err := run(t, e, call(FindToolsID, map[string]any{"query": "resize images"}))
	if err != nil {
		t.Fatal(err)
	}
	m := out.Content.(map[string]any)
	if got := m["added"].([]any); len(got) != 2 || got[0] != "img/resize" || got[1] != "img/crop" {
		t.Fatalf("added %v (the meta-tool and the 0.1 match stay out)", got)
	}
	if len(m["matches"].([]any)) != 4 {
		t.Errorf("matches %v", m["matches"])
	}
	set, _ := st.Get(context.Background(), "s1")
	if !slices.Equal(set.IDs(), []string{"img/resize", "img/crop"}) || set.Tools[0].Source != schemas.SourceFindTools {
		t.Fatalf("session %+v", set.Tools)
	}
	// Again: nothing new.
	out, _ = run(t, e, call(FindToolsID, map[string]any{"query": "resize images"}))
	if m := out.Content.(map[string]any); len(m["added"].([]any)) != 0 || !strings.Contains(m["message"].(string), "already") {
		t.Fatalf("second find: %v", m)
	}
	// Scope bounds what is found and added.
	c := call(FindToolsID, map[string]any{"query": "send mail"})
	c.SessionID, c.Scope = "scoped", []string{"mail"}
	out, _ = run(t, e, c)
	if m := out.Content.(map[string]any); len(m["added"].([]any)) != 0 || len(m["matches"].([]any)) != 1 {
		t.Fatalf("scoped find: %v", m)
	}
}

// A match that says it does another kind of thing than the query asks is
// listed with its mismatch but not added, and the message says why.
func TestFindToolsLeavesNearMissesOut(t *testing.T) {
	miss := &schemas.EffectMismatch{Asked: []string{"delete"}, Names: []string{"create"}}
	e, st := sessionExecutor(t, fixedSearch(
		schemas.Candidate{ToolID: "slack/post_message", Server: "slack", Confidence: 0.52, MatchType: schemas.MatchHybrid, Mismatch: miss},
		schemas.Candidate{ToolID: "mail/send", Server: "mail", Confidence: 0.06, MatchType: schemas.MatchHybrid},
	))
	out, err := run(t, e, call(FindToolsID, map[string]any{"query": "delete the slack message"}))
	if err != nil {
		t.Fatal(err)
	}
	m := out.Content.(map[string]any)
	if got := m["added"].([]any); len(got) != 0 {
		t.Fatalf("added %v; a near miss is not added", got)
	}
	want := `No tool here says it can delete as "delete the slack message" asks: slack/post_message says it can create. None added`
	if msg := m["message"].(string); !strings.Contains(msg, want) {
		t.Errorf("message %q, want it to say %q", msg, want)
	}
	if first := m["matches"].([]any)[0].(map[string]any); first["mismatch"] == nil {
		t.Errorf("first match %v lacks its mismatch", first)
	}
	if set, _ := st.Get(context.Background(), "s1"); len(set.Tools) != 0 {
		t.Fatalf("session %+v", set.Tools)
	}
}

func TestFindToolsFailsSafe(t *testing.T) {
	e, st := sessionExecutor(t, func(context.Context, string, int, []string) ([]schemas.Candidate, error) {
		return nil, errors.New("embedder failed: connection refused")
	})
	_, err := run(t, e, call(FindToolsID, map[string]any{"query": "resize images"}))
	if err == nil || !IsTransient(err) || !strings.Contains(err.Error(), "no tools were added") {
		t.Fatalf("failing discovery: %v", err)
	}
	if set, _ := st.Get(context.Background(), "s1"); len(set.Tools) != 0 {
		t.Fatalf("failing discovery added %v", set.IDs())
	}
}

func TestActivate(t *testing.T) {
	e, st := sessionExecutor(t, fixedSearch())
	tests := []struct {
		name   string
		params map[string]any
		scope  []string
		want   string // activated id, or an error fragment
		err    error
	}{
		{"by item_id", map[string]any{"item_id": "img/resize"}, nil, "img/resize", nil},
		{"by id", map[string]any{"id": "img/crop"}, nil, "img/crop", nil},
		{"from free text", map[string]any{"item_id": "activate mail/send please"}, nil, "mail/send", nil},
		{"unknown", map[string]any{"item_id": "img/rotate"}, nil, "no tool", ErrUnknownTool},
		{"nothing named", map[string]any{}, nil, "needs the id", ErrBadCall},
		{"outside scope", map[string]any{"item_id": "mail/send"}, []string{"img"}, "outside this session's scope", ErrBadCall},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := call(ActivateID, tt.params)
			c.Scope = tt.scope
			out, err := run(t, e, c)
			if tt.err != nil {
				if !errors.Is(err, tt.err) || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("error %v, want %v containing %q", err, tt.err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			m := out.Content.(map[string]any)
			if m["activated"] != tt.want || !strings.Contains(m["message"].(string), `<tool_call name="`+tt.want+`">`) {
				t.Fatalf("%v", m)
			}
		})
	}
	set, _ := st.Get(context.Background(), "s1")
	if !slices.Equal(set.IDs(), []string{"img/resize", "img/crop", "mail/send"}) || set.Tools[0].Source != schemas.SourceActivate {
		t.Fatalf("session %+v", set.Tools)
	}
}

func TestSessionMetaToolsNeedSessions(t *testing.T) {
	e := newExecutor(t, nil)
	for _, id := range []string{FindToolsID, ActivateID} {
		_, err := run(t, e, call(id, map[string]any{"query": "x", "item_id": HelpID}))
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "session") {
			t.Errorf("%s without sessions: %v", id, err)
		}
	}
}
