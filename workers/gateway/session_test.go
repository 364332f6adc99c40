package gateway

import (
	"context"
	"errors"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// The NATS backend refuses a session id that is not one subject token in
// every method, before it sends anything: the zero backend has no
// connection, so reaching NATS would panic.
func TestNATSBackendRefusesInvalidSessions(t *testing.T) {
	n := &NATS{}
	ctx := context.Background()
	calls := []struct {
		name string
		call func(sess string) error
	}{
		{"FindTools", func(s string) error { _, err := n.FindTools(ctx, s, "q", 3); return err }},
		{"Activate", func(s string) error { _, err := n.Activate(ctx, s, "t/x"); return err }},
		{"ResolveIntent", func(s string) error { _, err := n.ResolveIntent(ctx, s, "x"); return err }},
		{"ToolSet", func(s string) error { _, err := n.ToolSet(ctx, s); return err }},
		{"WatchSet", func(s string) error { return n.WatchSet(ctx, s, func(schemas.ToolSet, error) {}) }},
		{"Execute", func(s string) error { _, err := n.Execute(ctx, s, "t/x", nil); return err }},
	}
	for _, c := range calls {
		for _, sess := range []string{"", "a.b", "*", ">", "a b", "a\x00"} {
			t.Run(c.name+"/"+sess, func(t *testing.T) {
				if err := c.call(sess); !errors.Is(err, schemas.ErrInvalidSessionID) {
					t.Fatalf("%s(%q) = %v, want an invalid session id error", c.name, sess, err)
				}
			})
		}
	}
}
