package integration

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/toolyard/toolyard/schemas"
)

// A `toolyard up` killed with SIGKILL mid-work and restarted on the same data
// directory loses nothing it acknowledged: every published output is answered,
// each intent exactly once.
func TestEmbeddedServerRestartLosesNothing(t *testing.T) {
	reg, _ := testRegistry(t)
	data := useData(t, t.TempDir())
	port := freePort(t)
	url := "nats://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	up := func() *process {
		p := startProcess(t, "up", "--data", data, "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--http", "", "--registry", reg, "--ack-wait", "2s")
		p.WaitOutput(t, "stages", 30*time.Second)
		return p
	}
	first := up()
	js := connectJS(t, url, nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	const n = 20
	for i := 0; i < n; i++ {
		// Each publish is acknowledged by the server before the next.
		publishOutput(t, js, schemas.AgentOutput{SessionID: "restart", MessageID: fmt.Sprintf("r%02d", i),
			Text: fmt.Sprintf("[TOOL: test/record label=r%02d pause=0.05]", i)})
	}
	first.Kill(syscall.SIGKILL)
	up()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for !js.Conn().IsConnected() && ctx.Err() == nil {
		time.Sleep(50 * time.Millisecond)
	}
	rs := results(t, js, "restart", 60*time.Second, countAnswered(n))
	got := byIntent(rs)
	if len(got) != n {
		t.Fatalf("%d of %d intents answered after the restart", len(got), n)
	}
	for id, r := range got {
		if len(r) != 1 || r[0].Status != schemas.StatusExecuted {
			t.Errorf("intent %s: %d results, first %s %s", id, len(r), r[0].Status, r[0].Message)
		}
	}
}
