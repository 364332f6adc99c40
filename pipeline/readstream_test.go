package pipeline_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// ReadStreamTail reads a stream's last n messages in order, whatever n is
// beside the stream's length, and ends when the newest one it started
// with was removed meanwhile instead of waiting for it.
func TestReadStreamTail(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for i := range 1200 { // more than one fetch
		if _, err := env.JS.Publish(ctx, fmt.Sprintf("result.tail.%d", i%3), fmt.Appendf(nil, "%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	read := func(n uint64) []string {
		var got []string
		err := pipeline.ReadStreamTail(ctx, env.JS, pipeline.StreamResult, n, func(m jetstream.Msg, _ *jetstream.MsgMetadata) error {
			got = append(got, string(m.Data()))
			return nil
		})
		if err != nil {
			t.Fatalf("tail %d: %v", n, err)
		}
		return got
	}
	span := func(lo, hi int) []string {
		var out []string
		for i := lo; i < hi; i++ {
			out = append(out, fmt.Sprint(i))
		}
		return out
	}
	for _, tt := range []struct {
		n    uint64
		want []string
	}{
		{0, nil}, {1, span(1199, 1200)}, {3, span(1197, 1200)}, {700, span(500, 1200)}, {1200, span(0, 1200)}, {5000, span(0, 1200)},
	} {
		if got := read(tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("tail %d: %d messages, %v…; want %d", tt.n, len(got), got[:min(3, len(got))], len(tt.want))
		}
	}
	stream, err := env.JS.Stream(ctx, pipeline.StreamResult)
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.DeleteMsg(ctx, 1200); err != nil {
		t.Fatal(err)
	}
	if got := read(3); !slices.Equal(got, span(1197, 1199)) {
		t.Errorf("tail 3 with the last message deleted: %v", got)
	}
}
