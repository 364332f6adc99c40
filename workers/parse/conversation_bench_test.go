package parse_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/parse"
)

// BenchmarkConversation32Intents is the parse stage handling one output with
// a 6 MB conversation and 32 intents: "whole" copies the conversation into
// every intent (the behaviour before the per-intent cap), "capped" carries
// the default parse.DefaultIntentConversationBytes per intent. out-MB/op is
// what the stage hands on to discovery, which each later stage decodes and
// encodes again.
//
//	go test ./workers/parse/ -run '^$' -bench Conversation32Intents -benchmem
func BenchmarkConversation32Intents(b *testing.B) {
	conv := make([]schemas.Message, 0, 600)
	for i := 0; conversationSize(conv) < 6<<20; i++ {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		conv = append(conv, schemas.Message{Role: role, Content: prose(10 << 10)})
	}
	var text strings.Builder
	for i := range 32 {
		fmt.Fprintf(&text, "Step %d: [TOOL: record the label step-%d] ", i, i)
	}
	data, err := json.Marshal(schemas.AgentOutput{V: schemas.Version, SessionID: "s1", MessageID: "m1", Text: text.String(), Conversation: conv})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opts []parse.Option
	}{
		{"whole", []parse.Option{parse.WithMaxConversationBytes(8 << 20), parse.WithIntentConversationBytes(8 << 20)}},
		{"capped", []parse.Option{parse.WithMaxConversationBytes(8 << 20)}},
	} {
		st := parse.Stage(parse.New(c.opts...), parse.WithSessionRate(0, 0))
		b.Run(c.name+"/next-stage", func(b *testing.B) {
			// What each later stage (discover, route, resolve, execute) does
			// with the work parse handed on: decode and check every intent
			// against its contract, and encode it into its own hand-off.
			outs, err := st.Handler(context.Background(), &pipeline.Msg{Subject: "agent.output.s1", Data: data, NumDelivered: 1})
			if err != nil {
				b.Fatal(err)
			}
			var work [][]byte
			for _, o := range outs {
				if strings.HasPrefix(o.Subject, "pipe.discover.") {
					work = append(work, o.Data)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				for _, w := range work {
					in, err := schemas.Decode[schemas.Intent](schemas.KindIntent, w)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := json.Marshal(schemas.Candidates{V: schemas.Version, Intent: in}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(c.name, func(b *testing.B) {
			var out int
			b.ReportAllocs()
			for b.Loop() {
				outs, err := st.Handler(context.Background(), &pipeline.Msg{Subject: "agent.output.s1", Data: data, NumDelivered: 1})
				if err != nil {
					b.Fatal(err)
				}
				out = 0
				for _, o := range outs {
					out += len(o.Data)
				}
			}
			b.ReportMetric(float64(out)/(1<<20), "out-MB/op")
			b.ReportMetric(float64(len(data))/(1<<20), "in-MB/op")
		})
	}
}

func conversationSize(conv []schemas.Message) int {
	n := 0
	for _, m := range conv {
		n += len(m.Role) + len(m.Content)
	}
	return n
}
