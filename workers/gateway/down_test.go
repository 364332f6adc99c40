package gateway

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats.go"

	"github.com/toolyard/toolyard/pipeline/auth"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// With the connection to NATS down, every call says so at once, instead
// of waiting out its timeout for "context deadline exceeded": the server
// gone (call again when it is back), or the credential expired (no
// reconnect helps: a new one is needed).
func TestNATSBackendSaysWhenNATSIsDown(t *testing.T) {
	t.Run("server gone", func(t *testing.T) {
		env := pipelinetest.Start(t)
		nc, err := env.Server.Connect(nats.MaxReconnects(-1), nats.ReconnectWait(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		env.Server.Shutdown()
		for nc.Status() == nats.CONNECTED {
			time.Sleep(10 * time.Millisecond)
		}
		callsDown(t, nc, "not connected to NATS")
	})
	t.Run("credential expired", func(t *testing.T) {
		env := pipelinetest.Start(t)
		cred, err := env.Server.Keys().Mint(auth.User{Name: "brief", Permissions: jwt.Permissions{}, TTL: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "brief.creds")
		if err := cred.WriteFile(file); err != nil {
			t.Fatal(err)
		}
		nc, err := nats.Connect(env.Server.ClientURL(), nats.UserCredentials(file), nats.MaxReconnects(-1), nats.ReconnectWait(10*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		// Until the server has said why (the connection drops first).
		for nc.Status() == nats.CONNECTED || nc.LastError() == nil {
			time.Sleep(10 * time.Millisecond)
		}
		callsDown(t, nc, "refused the gateway's credential")
	})
}

// callsDown checks that each backend call over nc fails, mentioning says.
func callsDown(t *testing.T, nc *nats.Conn, says string) {
	t.Helper()
	// A call that waits out this timeout fails on its message, not on a
	// measured time.
	n, err := NewNATS(nc, 2*time.Second)
	if err != nil {
		t.Fatal(err)
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
			if err := c.call(); err == nil || !strings.Contains(err.Error(), says) {
				t.Fatalf("%s with NATS down: %v, want an error saying %q", c.name, err, says)
			}
		})
	}
}
