package execute

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestExecuteDispatch(t *testing.T) {
	echo := tool("t/echo", `{"type":"object","required":["msg"],"properties":{"msg":{"type":"string"},"n":{"type":"integer","maximum":5}}}`, "echo", "{msg}")
	alias := schemas.Manifest{ID: "t/alias", Name: "Alias", Description: "delegates", Executor: &schemas.Executor{Kind: schemas.ExecTool, Tool: "t/echo"}}
	alias2 := schemas.Manifest{ID: "t/alias2", Name: "Alias 2", Description: "delegates twice", Executor: &schemas.Executor{Kind: schemas.ExecTool, Tool: "t/alias"}}
	cycA := schemas.Manifest{ID: "t/cyc_a", Description: "x", Executor: &schemas.Executor{Kind: schemas.ExecTool, Tool: "t/cyc_b"}}
	cycB := schemas.Manifest{ID: "t/cyc_b", Description: "x", Executor: &schemas.Executor{Kind: schemas.ExecTool, Tool: "t/cyc_a"}}
	dangling := schemas.Manifest{ID: "t/dangling", Description: "x", Executor: &schemas.Executor{Kind: schemas.ExecTool, Tool: "t/gone"}}
	unnamed := schemas.Manifest{ID: "t/unnamed", Description: "x", Executor: &schemas.Executor{Kind: schemas.ExecTool}}
	noExec := schemas.Manifest{ID: "maps/scraper", Name: "Scraper", Description: "x"}
	toNoExec := schemas.Manifest{ID: "t/to_scraper", Description: "x", Executor: &schemas.Executor{Kind: schemas.ExecTool, Tool: "maps/scraper"}}
	httpTool := schemas.Manifest{ID: "t/http", Description: "x", Executor: &schemas.Executor{Kind: "smoke_signal"}}
	badBuiltin := schemas.Manifest{ID: "t/bad_builtin", Description: "x", Executor: &schemas.Executor{Kind: schemas.ExecBuiltin, Builtin: "teleport"}}
	viaBuiltin := schemas.Manifest{ID: "t/find", Description: "x", Executor: &schemas.Executor{Kind: schemas.ExecTool, Tool: SearchID}}
	tools := []schemas.Manifest{echo, alias, alias2, cycA, cycB, dangling, unnamed, noExec, toNoExec, httpTool, badBuiltin, viaBuiltin}
	// A chain one hop longer than allowed: t/d0 → t/d1 → … → t/d9 → t/echo.
	for i := 0; i <= MaxDelegation+1; i++ {
		next := "t/d" + string(rune('0'+i+1))
		if i == MaxDelegation+1 {
			next = "t/echo"
		}
		tools = append(tools, schemas.Manifest{ID: "t/d" + string(rune('0'+i)), Description: "x", Executor: &schemas.Executor{Kind: schemas.ExecTool, Tool: next}})
	}

	tests := []struct {
		name      string
		call      schemas.ToolCall
		wantOut   string
		wantClass error
		wantMsg   string
	}{
		{"subprocess", call("t/echo", map[string]any{"msg": "hi"}), "hi\n", nil, ""},
		{"empty meta-tool means execute", schemas.ToolCall{ToolID: "t/echo", Parameters: map[string]any{"msg": "x"}}, "x\n", nil, ""},
		{"delegation", call("t/alias2", map[string]any{"msg": "via"}), "via\n", nil, ""},
		{"delegation of eight hops", call("t/d2", map[string]any{"msg": "deep"}), "deep\n", nil, ""},
		{"delegation to a builtin", call("t/find", map[string]any{"query": "echo"}), "", nil, ""},
		{"unknown tool", call("t/nope", nil), "", ErrUnknownTool, `no tool "t/nope" in the registry; find the right id with [TOOL: search for tools that …]`},
		{"unknown tool with a suggestion", call("tools_search", nil), "", ErrUnknownTool, `no tool "tools_search" in the registry; did you mean toolyard/help, toolyard/search?`},
		{"xml strings are typed", call("t/echo", map[string]any{"msg": "hi", "n": "3"}), "hi\n", nil, ""},
		{"xml string that is no integer", call("t/echo", map[string]any{"msg": "hi", "n": "three"}), "", ErrInvalidParameters, `tool t/echo: invalid parameters: n: "three" is not an integer`},
		{"no tool id", call("", nil), "", ErrBadCall, "execute needs a tool_id"},
		{"unknown meta-tool", schemas.ToolCall{MetaTool: "teleport"}, "", ErrBadCall, `unknown meta-tool "teleport"`},
		{"missing required", call("t/echo", nil), "", ErrInvalidParameters, "tool t/echo: invalid parameters: at /: missing property 'msg'"},
		{"wrong type", call("t/echo", map[string]any{"msg": 5}), "", ErrInvalidParameters, "at /msg: got number, want string"},
		{"delegate validates too", call("t/alias", map[string]any{"msg": "x", "n": 9}), "", ErrInvalidParameters, "tool t/echo: invalid parameters: at /n: maximum: got 9, want 5"},
		{"no executor", call("maps/scraper", nil), "", ErrNoExecutor, "tool maps/scraper has no executor configured; it can be discovered but not run here"},
		{"no executor at end of chain", call("t/to_scraper", nil), "", ErrNoExecutor, "(reached through t/to_scraper → maps/scraper)"},
		{"cycle", call("t/cyc_a", nil), "", ErrDelegation, "tool t/cyc_a delegates in a cycle: t/cyc_a → t/cyc_b → t/cyc_a"},
		{"nine hops is too deep", call("t/d1", map[string]any{"msg": "x"}), "", ErrDelegation, "tool t/d1 delegates through more than 8 tools: t/d1 → t/d2"},
		{"dangling", call("t/dangling", nil), "", ErrDelegation, `tool t/dangling delegates to "t/gone", which is not in the registry`},
		{"unnamed delegate", call("t/unnamed", nil), "", ErrDelegation, "does not name it"},
		{"unsupported kind", call("t/http", nil), "", ErrUnsupported, `executor of kind "smoke_signal"`},
		{"unknown builtin", call("t/bad_builtin", nil), "", ErrUnsupported, `builtin "teleport"`},
	}
	e := newExecutor(t, tools)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := run(t, e, tt.call)
			if tt.wantClass == nil {
				if err != nil {
					t.Fatalf("Execute: %v", err)
				}
				if s, ok := out.Content.(string); tt.wantOut != "" && (!ok || s != tt.wantOut) {
					t.Fatalf("content = %#v, want %q", out.Content, tt.wantOut)
				}
				return
			}
			if !errors.Is(err, tt.wantClass) {
				t.Fatalf("err = %v, want class %v", err, tt.wantClass)
			}
			if IsTransient(err) {
				t.Errorf("bad call reported transient: %v", err)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("message %q does not contain %q", err, tt.wantMsg)
			}
		})
	}
}

func TestWithRunner(t *testing.T) {
	m := schemas.Manifest{ID: "t/http", Description: "x", Parameters: []byte(`{"type":"object","properties":{"n":{"type":"integer","default":3}}}`),
		Executor: &schemas.Executor{Kind: "http"}}
	var got schemas.ToolCall
	e := newExecutor(t, []schemas.Manifest{m}, WithGrants(ClassNetwork), WithRunner("http", func(ctx context.Context, m schemas.Manifest, c schemas.ToolCall) (schemas.ToolOutput, error) {
		got = c
		return schemas.ToolOutput{Content: "ok"}, nil
	}))
	out, err := run(t, e, call("t/http", nil))
	if err != nil || out.Content != "ok" {
		t.Fatalf("out %v err %v", out, err)
	}
	if got.Parameters["n"] != 3.0 {
		t.Fatalf("runner got parameters %v, want the default filled in", got.Parameters)
	}
}

func TestExecuteCanceledIsTransient(t *testing.T) {
	e := newExecutor(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := e.Execute(ctx, call("t/echo", nil))
	if !IsTransient(err) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want transient context.Canceled", err)
	}
}

func TestIsTransient(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("x"), false},
		{transient(errors.New("x")), true},
		{badCall(ErrUnknownTool, "x"), false},
		{&ToolError{ToolID: "x"}, false},
		{errors.Join(errors.New("a"), transient(errors.New("b"))), true},
	}
	for _, tt := range tests {
		if got := IsTransient(tt.err); got != tt.want {
			t.Errorf("IsTransient(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
