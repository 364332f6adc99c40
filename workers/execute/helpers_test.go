package execute

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
)

// tool builds a subprocess tool; params is its JSON Schema ("" for none).
func tool(id, params string, argv ...string) schemas.Manifest {
	m := schemas.Manifest{ID: id, Name: id, Description: "test tool " + id,
		Executor: &schemas.Executor{Kind: schemas.ExecSubprocess, Argv: argv, Timeout: schemas.Duration(5 * time.Second)}}
	if params != "" {
		m.Parameters = json.RawMessage(params)
	}
	return m
}

func newExecutor(t *testing.T, tools []schemas.Manifest, opts ...Option) *Executor {
	t.Helper()
	return New(registry.New(tools...), nil, opts...)
}

func call(toolID string, params map[string]any) schemas.ToolCall {
	return schemas.ToolCall{V: schemas.Version, IntentID: "intent-1", SessionID: "s1", MetaTool: schemas.MetaExecute, ToolID: toolID, Parameters: params}
}

func run(t *testing.T, e *Executor, c schemas.ToolCall) (schemas.ToolOutput, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return e.Execute(ctx, c)
}
