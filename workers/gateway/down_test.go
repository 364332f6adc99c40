package gateway

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// With the connection to NATS down, every call says so at once, instead
// of waiting out its timeout for "context deadline exceeded".
func TestNATSBackendSaysWhenNATSIsDown(t *testing.T) {
	env := pipelinetest.Start(t)
	nc, err := env.Server.Connect(nats.MaxReconnects(-1), nats.ReconnectWait(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	// A call that waits out this timeout fails on its message, not on a
	// measured time.
	n, err := NewNATS(nc, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	env.Server.Shutdown()
	for nc.Status() == nats.CONNECTED {
		time.Sleep(10 * time.Millisecond)
	}
	ctx := context.Background()
	calls := []struct {
		name string
		call func() error
	}{
		{"FindTools", func() error { _, err := n.FindTools(ctx, "s", "q", 3); return err }},
		{"Activate", func() error { _, err := n.Activate(ctx, "s", "t/x"); return err }},
		{"ResolveIntent", func() error { _, err := n.ResolveIntent(ctx, "s", "x"); return err }},
		{"ToolSet", func() error { _, err := n.ToolSet(ctx, "s"); return err }},
		{"Execute", func() error { _, err := n.Execute(ctx, "s", "t/x", nil); return err }},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			if err := c.call(); err == nil || !strings.Contains(err.Error(), "not connected to NATS") {
				t.Fatalf("%s with NATS down: %v, want an error saying the gateway is not connected", c.name, err)
			}
		})
	}
}
