package execute

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// ExecuteForResult takes a result's arguments from the run's own
// validation; they must be what ResultArguments (which validates on its
// own) shows, for valid calls and refused ones alike.
func TestExecuteForResultArguments(t *testing.T) {
	typed := schemas.Manifest{ID: "t/typed", Name: "Typed", Description: "x",
		Parameters: json.RawMessage(`{"type":"object","required":["path"],"properties":{` +
			`"path":{"type":"string"},"n":{"type":"integer","maximum":5,"default":2},"token":{"type":"string","writeOnly":true}}}`),
		Executor: &schemas.Executor{Kind: "fake_kind"}}
	// Its delegate adds a default of its own, which the caller never saw.
	inner := schemas.Manifest{ID: "t/inner", Name: "Inner", Description: "x",
		Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"n":{"type":"integer"},"token":{"type":"string"},"mode":{"type":"string","default":"fast"}}}`),
		Executor:   &schemas.Executor{Kind: "fake_kind"}}
	outer := schemas.Manifest{ID: "t/outer", Name: "Outer", Description: "x", Parameters: typed.Parameters,
		Executor: &schemas.Executor{Kind: schemas.ExecTool, Tool: "t/inner"}}
	noExec := schemas.Manifest{ID: "t/no_exec", Name: "No exec", Description: "x",
		Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","default":7}}}`)}

	// The runner changes the arguments it is given: what the result shows
	// must not follow.
	mutate := WithRunner("fake_kind", func(_ context.Context, _ schemas.Manifest, c schemas.ToolCall) (schemas.ToolOutput, error) {
		c.Parameters["n"] = 99
		return schemas.ToolOutput{Content: "ran"}, nil
	})
	e := newExecutor(t, []schemas.Manifest{typed, inner, outer, noExec}, WithGrants(ClassNetwork), mutate)

	// A registry tool with a builtin's id shadows it; a meta call still
	// runs the builtin, but the result shows the arguments by the tool
	// its id names, as before.
	shadowHelp := schemas.Manifest{ID: HelpID, Name: "Other help", Description: "x",
		Parameters: json.RawMessage(`{"type":"object","properties":{"item_id":{"type":"string"},"depth":{"type":"integer","default":1}}}`)}
	shadowed := newExecutor(t, []schemas.Manifest{shadowHelp})

	metaHelp := func(params map[string]any) schemas.ToolCall {
		c := call(HelpID, params)
		c.MetaTool = schemas.MetaHelp
		return c
	}
	tests := []struct {
		name     string
		e        *Executor
		call     schemas.ToolCall
		wantArgs map[string]any
		wantErr  error
	}{
		{"defaults filled, strings typed, secret redacted", e,
			call("t/typed", map[string]any{"path": "/srv/a", "n": "4", "token": "s3cr3t-value"}),
			map[string]any{"path": "/srv/a", "n": int64(4), "token": bind.Redacted}, nil},
		{"default filled", e, call("t/typed", map[string]any{"path": "/srv/b"}),
			map[string]any{"path": "/srv/b", "n": float64(2)}, nil},
		{"invalid: refused, shown as given", e, call("t/typed", map[string]any{"path": "/srv/c", "n": 9}),
			map[string]any{"path": "/srv/c", "n": 9}, ErrInvalidParameters},
		{"missing required: refused, shown as given", e, call("t/typed", map[string]any{"n": 1}),
			map[string]any{"n": 1}, ErrInvalidParameters},
		{"not a number: refused, shown as given", e, call("t/typed", map[string]any{"path": "/x", "n": "lots"}),
			map[string]any{"path": "/x", "n": "lots"}, ErrInvalidParameters},
		{"delegation shows the first tool's view", e, call("t/outer", map[string]any{"path": "/srv/d"}),
			map[string]any{"path": "/srv/d", "n": float64(2)}, nil},
		{"no executor: still prepared for the result", e, call("t/no_exec", nil),
			map[string]any{"n": float64(7)}, ErrNoExecutor},
		{"unknown tool", e, call("t/gone", map[string]any{"a": "b"}), map[string]any{"a": "b"}, ErrUnknownTool},
		{"meta help", e, metaHelp(map[string]any{"item_id": "t/typed"}), map[string]any{"item_id": "t/typed"}, nil},
		{"meta help without arguments", e, metaHelp(nil), map[string]any{}, nil},
		{"meta help shadowed by a registry tool", shadowed, metaHelp(map[string]any{"item_id": "x"}),
			map[string]any{"item_id": "x", "depth": float64(1)}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, args, err := tt.e.ExecuteForResult(ctx, tt.call)
			if tt.wantErr == nil && err != nil {
				t.Fatalf("ExecuteForResult: %v", err)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want class %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(args, tt.wantArgs) {
				t.Errorf("arguments = %#v, want %#v", args, tt.wantArgs)
			}
			if again := tt.e.ResultArguments(ctx, tt.call); !reflect.DeepEqual(args, again) {
				t.Errorf("arguments = %#v, but ResultArguments gives %#v", args, again)
			}
		})
	}
}
