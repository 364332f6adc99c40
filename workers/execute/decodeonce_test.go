package execute

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// The runner asks the stage for an input's secrets, then runs its handler
// on the same message: the call is decoded once, by the first, and the
// handler answers as it does from the bytes alone.
func TestStageDecodesACallOnce(t *testing.T) {
	tk := tool("t/tok", `{"type":"object","required":["token"],"properties":{"token":{"type":"string","writeOnly":true},"n":{"type":"integer","default":1}}}`, "true")
	st := Stage(newExecutor(t, []schemas.Manifest{tk}))
	ctx := ctxFor(t)
	msg := func(c schemas.ToolCall) *pipeline.Msg {
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return &pipeline.Msg{Subject: "pipe.execute.s1", Data: data, NumDelivered: 1}
	}
	help := schemas.ToolCall{V: schemas.Version, IntentID: "i1", SessionID: "s1", MessageID: "m1", MetaTool: schemas.MetaHelp,
		ToolID: HelpID, Parameters: map[string]any{"item_id": "t/tok"}}
	secret := schemas.ToolCall{V: schemas.Version, IntentID: "i2", SessionID: "s1", MessageID: "m1", MetaTool: schemas.MetaExecute,
		ToolID: "t/tok", Parameters: map[string]any{"token": "hunter2-hunter2", "n": "x"}}

	for _, c := range []schemas.ToolCall{help, secret} {
		t.Run(c.ToolID, func(t *testing.T) {
			m := msg(c)
			secrets := st.Secrets(ctx, m)
			left, ok := m.Value.(schemas.ToolCall)
			if !ok {
				t.Fatalf("Secrets left %T for the handler, want the decoded call", m.Value)
			}
			if !reflect.DeepEqual(left.Parameters, c.Parameters) || left.IntentID != c.IntentID {
				t.Fatalf("left %+v, want %+v", left, c)
			}
			if c.ToolID == "t/tok" && !reflect.DeepEqual(secrets, []string{"hunter2-hunter2"}) {
				t.Errorf("secrets %q", secrets)
			}
			hctx := pipeline.WithScrubber(ctx, pipeline.NewScrubber(secrets...))
			viaValue, err := st.Handler(hctx, m)
			if err != nil {
				t.Fatal(err)
			}
			fromBytes, err := st.Handler(hctx, msg(c))
			if err != nil {
				t.Fatal(err)
			}
			a, _ := decodeOuts(t, viaValue)
			b, _ := decodeOuts(t, fromBytes)
			if a.Status != b.Status || !reflect.DeepEqual(a.Arguments, b.Arguments) || !reflect.DeepEqual(a.Error, b.Error) ||
				(a.Output == nil) != (b.Output == nil) || a.Output != nil && !reflect.DeepEqual(a.Output.Content, b.Output.Content) {
				t.Errorf("handled from the left value: %+v\nfrom the bytes: %+v", a, b)
			}
		})
	}

	// A message that is no call leaves nothing, and is refused for good.
	m := &pipeline.Msg{Subject: "pipe.execute.s1", Data: []byte(`{"intent_id":"i3","session_id":"s1","tool_id":7}`), NumDelivered: 1}
	if s := st.Secrets(ctx, m); len(s) != 0 || m.Value != nil {
		t.Fatalf("secrets %q, value %#v for a garbled call", s, m.Value)
	}
	if _, err := st.Handler(ctx, m); err == nil || !pipeline.IsPermanent(err) {
		t.Fatalf("garbled call: err = %v, want a permanent error", err)
	}
}
