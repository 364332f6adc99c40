package execute

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// An error result of a call that was tried carries the call as it was
// tried (secrets redacted), the values no argument took and the hint, as
// an executed one does: the agent fixes the call from them.
func TestErrorResultsCarryTheCall(t *testing.T) {
	root := t.TempDir()
	missing := filepath.Join(root, "missing.txt")
	count := tool("t/count", `{"type":"object","required":["path"],"properties":{"path":{"type":"string"},`+
		`"token":{"type":"string","writeOnly":true,"pattern":"^[a-z0-9-]+$"}}}`, "wc", "-l", "{path}")
	e := newExecutor(t, []schemas.Manifest{count}, WithPathRoots(root), WithRetryBudget(0))
	st := Stage(e)
	unmapped := []schemas.Unmapped{{Text: "quickly"}}
	hint := &schemas.Hint{ToolID: "t/count", ToolCall: `<tool_call name="t/count">{}</tool_call>`, Count: 3, Sessions: 2, Share: 1}

	tests := []struct {
		name     string
		tool     string
		params   map[string]any
		wantCode string
		wantArgs map[string]any
	}{
		{"tool failed", "t/count", map[string]any{"path": missing}, bind.CodeToolFailed,
			map[string]any{"path": missing}},
		{"path not allowed", "t/count", map[string]any{"path": "/etc/hostname"}, CodePathNotAllowed,
			map[string]any{"path": "/etc/hostname"}},
		{"secret of a failed call redacted", "t/count", map[string]any{"path": missing, "token": "s3cr3t-1"}, bind.CodeToolFailed,
			map[string]any{"path": missing, "token": bind.Redacted}},
		{"secret of an invalid call redacted", "t/count", map[string]any{"path": missing, "token": "NOT VALID"}, bind.CodeInvalidArgs,
			map[string]any{"path": missing, "token": bind.Redacted}},
		{"unknown tool: as given", "t/gone", map[string]any{"a": "b"}, bind.CodeUnknownTool,
			map[string]any{"a": "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := call(tt.tool, tt.params)
			c.MessageID, c.Unmapped, c.Hint, c.Outer = "m1", unmapped, hint, "outer-1"
			data, err := json.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			outs, err := st.Handler(ctxFor(t), &pipeline.Msg{Subject: "pipe.execute.s1", Data: data, NumDelivered: 1})
			if err != nil {
				t.Fatal(err)
			}
			// The result, then its copy for the join stage (the call is
			// nested), then the audit record.
			var res schemas.Result
			if err := json.Unmarshal(outs[0].Data, &res); err != nil {
				t.Fatal(err)
			}
			if res.Status != schemas.StatusError || res.Error == nil || res.Error.Code != tt.wantCode {
				t.Fatalf("result %s %+v, want error %s", res.Status, res.Error, tt.wantCode)
			}
			if !reflect.DeepEqual(res.Arguments, tt.wantArgs) {
				t.Errorf("arguments %v, want %v", res.Arguments, tt.wantArgs)
			}
			if !reflect.DeepEqual(res.Unmapped, unmapped) || !reflect.DeepEqual(res.Hint, hint) || res.Outer != "outer-1" || res.ToolID != tt.tool {
				t.Errorf("unmapped %v, hint %+v, outer %q, tool %q: want the call's", res.Unmapped, res.Hint, res.Outer, res.ToolID)
			}
			if strings.Contains(string(outs[0].Data), "s3cr3t") {
				t.Errorf("the result holds the secret: %s", outs[0].Data)
			}
			if err := schemas.Validate(schemas.KindResult, outs[0].Data); err != nil {
				t.Errorf("result breaks its schema: %v", err)
			}
		})
	}
}
