package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// A full AGENT stream refuses the next output with an error the publisher
// sees, and keeps every output it accepted: no silent loss.
func TestFullAgentStreamRefusesRatherThanDrops(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx := context.Background()
	topo := env.Topology
	topo.Agent.MaxBytes = 4 << 10
	if err := topo.Apply(ctx, env.JS); err != nil {
		t.Fatal(err)
	}
	body := []byte(strings.Repeat("x", 400))
	accepted := 0
	var refused error
	for i := range 100 {
		if _, err := env.JS.Publish(ctx, fmt.Sprintf("agent.output.s%d", i), body); err != nil {
			refused = err
			break
		}
		accepted++
	}
	if refused == nil {
		t.Fatal("100 outputs of 400 bytes fit a 4 KiB stream")
	}
	var apiErr *jetstream.APIError
	if !errors.As(refused, &apiErr) || !strings.Contains(refused.Error(), "maximum bytes") {
		t.Errorf("the refusal should say the stream is full: %v", refused)
	}
	s, err := env.JS.Stream(ctx, pipeline.StreamAgent)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if int(info.State.Msgs) != accepted || info.State.FirstSeq != 1 {
		t.Errorf("stream holds %d messages from seq %d; %d were accepted: accepted outputs were dropped", info.State.Msgs, info.State.FirstSeq, accepted)
	}
}
