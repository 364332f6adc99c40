package execute

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/effects"
)

// BenchmarkStageHandler measures what exactly-once costs a call: a claim
// and a stored result (two KV writes on an embedded file-backed server),
// against a call to the builtin help tool that does no I/O of its own.
func BenchmarkStageHandler(b *testing.B) {
	env := pipelinetest.Start(b)
	x, err := effects.OpenExecutions(context.Background(), env.JS)
	if err != nil {
		b.Fatal(err)
	}
	e := New(nil, nil)
	for _, bc := range []struct {
		name string
		opts []StageOption
		// params: the help for a tool (what bench pipeline asks for), asked
		// as the runner asks: the secrets first, then the handler.
		params map[string]any
	}{
		{"without_effects", nil, nil},
		{"exactly_once", []StageOption{WithExecutions(x)}, nil},
		{"exactly_once_tool_help", []StageOption{WithExecutions(x)}, map[string]any{"item_id": HelpID}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			st := Stage(e, bc.opts...)
			ctx := context.Background()
			for i := 0; b.Loop(); i++ {
				c := schemas.ToolCall{V: schemas.Version, IntentID: fmt.Sprintf("%s-%d.0", bc.name, i), SessionID: "bench",
					MetaTool: schemas.MetaHelp, ToolID: HelpID, Parameters: bc.params}
				data, _ := json.Marshal(c)
				m := &pipeline.Msg{Subject: "pipe.execute.bench", Data: data, NumDelivered: 1}
				hctx := pipeline.WithScrubber(ctx, pipeline.NewScrubber(st.Secrets(ctx, m)...))
				if _, err := st.Handler(hctx, m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
