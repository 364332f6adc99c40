package pipeline_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// Run's errors name the stage, once: callers print them as they are.
func TestRunErrorsNameTheStageOnce(t *testing.T) {
	env := pipelinetest.Start(t)
	base := pipeline.Stage{Name: "named", Stream: pipeline.StreamPipe, Subjects: []string{"pipe.named.>"}, Handler: forward}
	tests := []struct {
		name  string
		stage func(pipeline.Stage) pipeline.Stage
		want  string
	}{
		{"incomplete", func(s pipeline.Stage) pipeline.Stage { s.Handler = nil; return s }, `stage "named": name, stream, subjects and handler are required`},
		{"setup fails", func(s pipeline.Stage) pipeline.Stage {
			s.Setup = func(context.Context, jetstream.JetStream) error { return errors.New("no bucket") }
			return s
		}, "stage named: setup: no bucket"},
		{"no such stream", func(s pipeline.Stage) pipeline.Stage { s.Stream = "NOPE"; return s }, "stage named: consumer on stream NOPE:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := pipeline.Run(context.Background(), env.JS, tt.stage(base))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to start %q", err, tt.want)
			}
			if n := strings.Count(err.Error(), "named"); n != 1 {
				t.Errorf("the stage is named %d times in %q", n, err)
			}
		})
	}
}
