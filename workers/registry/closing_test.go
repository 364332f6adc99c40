package registry_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
)

// A watch that ends because its connection closed says so (Closing), so
// the process that follows the registry stops instead of resubscribing on
// a dead connection and logging it as a fault.
func TestWatchEndedByItsConnectionClosing(t *testing.T) {
	env := pipelinetest.Start(t)
	nc, err := env.Server.Connect()
	if err != nil {
		t.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	store, err := registry.OpenStore(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	if store.Closing() {
		t.Fatal("Closing on an open connection")
	}
	loaded := make(chan struct{})
	ended := make(chan error, 1)
	go func() {
		ended <- store.Watch(ctx, func([]schemas.Manifest) error { close(loaded); return nil }, func(registry.Event) {}, func(string, error) {})
	}()
	<-loaded
	nc.Close()
	select {
	case err := <-ended:
		if err == nil || errors.Is(err, context.Canceled) {
			t.Errorf("watch ended with %v, want the end of its updates", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the watch did not end when its connection closed")
	}
	if !store.Closing() {
		t.Error("Closing is false after the connection closed")
	}
}
