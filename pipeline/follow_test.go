package pipeline_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// A reader waiting for results ends with its context when the server has
// gone away, as it does when the server is up (an ordered consumer's Next
// retried making its consumer without end then).
func TestReaderEndsWithItsContextWhenTheServerIsGone(t *testing.T) {
	dir := t.TempDir()
	env := pipelinetest.Start(t, dir)
	nc, err := nats.Connect(env.Server.ClientURL(), nats.UserCredentials(pipelinetest.AdminCreds(dir)), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	cons, err := pipeline.FollowFromEnd(ctx, js, pipeline.StreamResult, "result.reader")
	if err != nil {
		t.Fatal(err)
	}
	r, err := pipeline.NewReader(ctx, cons)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	if _, err := js.Publish(ctx, "result.reader", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if m, err := r.Next(); err != nil || string(m.Data()) != `{}` {
		t.Fatalf("first message: %v", err)
	}

	env.Stop()
	done := make(chan error, 1)
	go func() {
		_, err := r.Next()
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Next after the server went away: %v, want the context's deadline", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Next still blocked 30 s after its 3 s context ended, the server gone")
	}
}
