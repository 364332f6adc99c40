package slow

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/integration/itest"
	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// A real three-node cluster with R3 streams and a worker on each node:
// one node is killed under load and later restarted. Every output is
// answered exactly once and every tool call ran exactly once.
func TestClusterNodeLossLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("three servers and three worker processes")
	}
	nodes, urls, keys := itest.StartCluster(t)
	all := strings.Join(urls, ",")
	admin, worker := filepath.Join(keys, "creds", "admin.creds"), filepath.Join(keys, "creds", "worker.creds")

	reg, recordFile := itest.RecordRegistry(t)
	// The meta leader takes a moment after the routes form, and a new
	// bucket's stream a moment after that.
	retryToolyard(t, 60*time.Second, "streams", "apply", "--replicas", "3", "--yes", "--nats", all, "--creds", admin)
	retryToolyard(t, 60*time.Second, "tools", "import", "--nats", all, "--creds", admin, reg)
	for i, u := range urls {
		// each worker starts on its own node (and fails over to the others)
		order := append([]string{u}, append(append([]string(nil), urls[:i]...), urls[i+1:]...)...)
		w := itest.StartProcess(t, "worker", "--nats", strings.Join(order, ","), "--creds", worker, "--http", "",
			"--stage", "parse,discover,route,choose,answer,resolve,execute,join")
		w.WaitOutput(t, "worker started", 60*time.Second)
	}

	js := itest.ConnectJS(t, all, nats.UserCredentials(admin), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	const outputs = 240
	var killedAt, firstAfterKill time.Time
	var mu sync.Mutex
	for i := range outputs {
		switch i {
		case outputs / 3:
			nodes[1].Stop()
			mu.Lock()
			killedAt = time.Now()
			mu.Unlock()
			t.Logf("node n2 killed after %d outputs", i)
		case 2 * outputs / 3:
			nodes[1].Start(t)
			t.Logf("node n2 restarted after %d outputs", i)
		}
		out := schemas.AgentOutput{V: schemas.Version, SessionID: fmt.Sprintf("c%d", i%8), MessageID: fmt.Sprintf("m%d", i),
			Text: fmt.Sprintf(`<tool_call name="test/record">{"label": "L%d"}</tool_call>`, i)}
		data, _ := json.Marshal(out)
		// A publish the cluster did not acknowledge (during the election
		// after the kill) is retried with the same id: JetStream dedupes it.
		for attempt := 0; ; attempt++ {
			pctx, pcancel := context.WithTimeout(ctx, 5*time.Second)
			_, err := js.Publish(pctx, schemas.AgentOutputSubject(out.SessionID), data, jetstream.WithMsgID(out.SessionID+":"+out.MessageID))
			pcancel()
			if err == nil {
				break
			}
			if attempt > 20 {
				t.Fatalf("output %d not accepted by the cluster: %v", i, err)
			}
			time.Sleep(250 * time.Millisecond)
		}
		mu.Lock()
		if !killedAt.IsZero() && firstAfterKill.IsZero() && i > outputs/3 {
			firstAfterKill = time.Now()
		}
		mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}

	// Every output: exactly one executed result.
	executed := map[string]int{}
	var results int
	waitUntil := time.Now().Add(3 * time.Minute)
	for time.Now().Before(waitUntil) {
		executed, results = executedResults(ctx, t, js)
		if len(executed) == outputs {
			break
		}
		time.Sleep(time.Second)
	}
	var lost, duplicated int
	for i := range outputs {
		switch n := executed[fmt.Sprintf("m%d", i)]; {
		case n == 0:
			lost++
		case n > 1:
			duplicated++
		}
	}
	ran := itest.Records(t, recordFile)
	var effectsTwice, effectsMissing int
	for i := range outputs {
		switch n := len(ran[fmt.Sprintf("L%d", i)]); {
		case n == 0:
			effectsMissing++
		case n > 1:
			effectsTwice++
		}
	}
	recovery := firstAfterKill.Sub(killedAt)
	t.Logf("%d outputs, %d results read: %d lost, %d answered twice; effects: %d missing, %d twice; first output accepted %s after the kill",
		outputs, results, lost, duplicated, effectsMissing, effectsTwice, recovery.Round(time.Millisecond))
	if lost > 0 || duplicated > 0 || effectsTwice > 0 || effectsMissing > 0 {
		t.Fatalf("node loss: %d lost, %d duplicated results, %d effects twice, %d missing", lost, duplicated, effectsTwice, effectsMissing)
	}
}

// executedResults counts executed results per message id in RESULT.
func executedResults(ctx context.Context, t *testing.T, js jetstream.JetStream) (map[string]int, int) {
	t.Helper()
	got := map[string]int{}
	n := 0
	err := pipeline.ReadStream(ctx, js, pipeline.StreamResult, "result.>", time.Time{}, func(m jetstream.Msg, _ *jetstream.MsgMetadata) error {
		n++
		var r schemas.Result
		if json.Unmarshal(m.Data(), &r) == nil && r.Status == schemas.StatusExecuted {
			got[r.MessageID]++
		}
		return nil
	})
	if err != nil {
		t.Logf("read results: %v", err)
	}
	return got, n
}
