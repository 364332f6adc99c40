package integration

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// testMaxFileStore is the JetStream store the tests' own servers are
// given: the built-in stream sizes reserve about 14 GiB, which a server
// sizing its store from the free disk (three quarters of it) cannot on a
// fuller disk, while the tests store a few megabytes.
const testMaxFileStore = "64GB"

// clusterNode is a nats-server run from a configuration file, as an
// operator runs one (a node of a test cluster, restartable on its store).
type clusterNode struct {
	conf string
	ns   *server.Server
}

func (n *clusterNode) start(t *testing.T) {
	t.Helper()
	if err := n.tryStart(); err != nil {
		t.Fatal(err)
	}
}

// tryStart starts the node's server and waits until it listens for
// clients and routes. One that does not says why: a server without a
// logger drops its listener's error (its Fatalf logs nothing and does not
// exit), which its health check still carries.
func (n *clusterNode) tryStart() error {
	opts, err := server.ProcessConfigFile(n.conf)
	if err != nil {
		return fmt.Errorf("%s: %w", n.conf, err)
	}
	opts.NoSigs = true
	ns, err := server.NewServer(opts)
	if err != nil {
		return fmt.Errorf("%s: %w", n.conf, err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(20 * time.Second) {
		why := ns.Healthz(&server.HealthzOptions{}).Error
		ns.Shutdown()
		ns.WaitForShutdown()
		return fmt.Errorf("%s not ready after 20 s: %s", n.conf, why)
	}
	n.ns = ns
	return nil
}

func (n *clusterNode) stop() {
	if n.ns != nil {
		n.ns.Shutdown()
		n.ns.WaitForShutdown()
		n.ns = nil
	}
}

// startSecuredNode starts one JetStream server trusting the keys 'toolyard
// creds server-config' writes, as an operator runs it; it returns its
// client URL and the directory of the keys and credentials (creds/admin.creds,
// creds/worker.creds).
func startSecuredNode(t *testing.T) (url, keys string) {
	t.Helper()
	dir := t.TempDir()
	keys = filepath.Join(dir, "keys")
	toolyard(t, "creds", "server-config", "--data", keys, "--out", filepath.Join(dir, "auth.conf"))
	port := freePort(t)
	conf := filepath.Join(dir, "nats.conf")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf("listen: 127.0.0.1:%d\njetstream { store_dir: %q, max_file_store: "+testMaxFileStore+" }\ninclude ./auth.conf\n",
		port, filepath.Join(dir, "js"))), 0o600); err != nil {
		t.Fatal(err)
	}
	node := &clusterNode{conf: conf}
	node.start(t)
	t.Cleanup(node.stop)
	return fmt.Sprintf("nats://127.0.0.1:%d", port), keys
}

// startCluster starts three JetStream servers routed to each other, trusting
// the keys 'toolyard creds server-config' writes; it returns the nodes,
// their client URLs and the directory of the keys and credentials.
func startCluster(t *testing.T) ([]*clusterNode, []string, string) {
	t.Helper()
	dir := t.TempDir()
	keys := filepath.Join(dir, "keys")
	toolyard(t, "creds", "server-config", "--data", keys, "--out", filepath.Join(dir, "auth.conf"))
	// The ports are chosen before the servers listen on them, and another
	// process of the machine (CI runs the other packages' tests beside
	// these, each starting servers and connecting) can take one meanwhile:
	// a start whose listener found its address taken is tried again on
	// other ports, a few times. Any other failure fails the test.
	const attempts = 3
	for attempt := 1; ; attempt++ {
		nodes, urls, err := startNodes(t, dir, attempt)
		if err == nil {
			return nodes, urls, keys
		}
		if attempt == attempts || !strings.Contains(err.Error(), "address already in use") {
			t.Fatalf("cluster start %d of %d: %v", attempt, attempts, err)
		}
		t.Logf("cluster start %d of %d: %v; starting again on other ports", attempt, attempts, err)
	}
}

// startNodes starts the three nodes of startCluster on ports of their own,
// with their configurations and stores in dir/<attempt>; on an error it
// stops those that started.
func startNodes(t *testing.T, dir string, attempt int) ([]*clusterNode, []string, error) {
	t.Helper()
	ports := freePorts(t, 6)
	clientPorts, routePorts := ports[:3], ports[3:]
	var routes []string
	for _, p := range routePorts {
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", p))
	}
	sub := filepath.Join(dir, fmt.Sprint(attempt))
	if err := os.MkdirAll(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	var nodes []*clusterNode
	var urls []string
	for i := range 3 {
		conf := filepath.Join(sub, fmt.Sprintf("n%d.conf", i+1))
		if err := os.WriteFile(conf, []byte(fmt.Sprintf(`server_name: n%d
listen: 127.0.0.1:%d
jetstream { store_dir: %q, max_file_store: `+testMaxFileStore+` }
cluster { name: toolyard, listen: 127.0.0.1:%d, routes: [%s] }
include ../auth.conf
`, i+1, clientPorts[i], filepath.Join(sub, fmt.Sprintf("js%d", i+1)), routePorts[i], strings.Join(routes, ", "))), 0o600); err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, &clusterNode{conf: conf})
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", clientPorts[i]))
	}
	// Started together: each waits for its routes to the others. Failures
	// are returned to the test's goroutine (t.Fatal may not be called from
	// another).
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = n.tryStart() }()
	}
	wg.Wait()
	stopAll := func() {
		for _, n := range nodes {
			n.stop()
		}
	}
	if err := errors.Join(errs...); err != nil {
		stopAll()
		return nil, nil, err
	}
	t.Cleanup(stopAll)
	return nodes, urls, nil
}

// A real three-node cluster with R3 streams and a worker on each node:
// one node is killed under load and later restarted. Every output is
// answered exactly once and every tool call ran exactly once.
func TestClusterNodeLossLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("three servers and three worker processes")
	}
	nodes, urls, keys := startCluster(t)
	all := strings.Join(urls, ",")
	admin, worker := filepath.Join(keys, "creds", "admin.creds"), filepath.Join(keys, "creds", "worker.creds")

	reg, recordFile := testRegistry(t)
	// The meta leader takes a moment after the routes form, and a new
	// bucket's stream a moment after that.
	for _, args := range [][]string{
		{"streams", "apply", "--replicas", "3", "--yes", "--nats", all, "--creds", admin},
		{"tools", "import", "--nats", all, "--creds", admin, reg},
	} {
		deadline := time.Now().Add(60 * time.Second)
		for {
			out, err := runToolyard(args...)
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("toolyard %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			time.Sleep(time.Second)
		}
	}
	for i, u := range urls {
		// each worker starts on its own node (and fails over to the others)
		order := append([]string{u}, append(append([]string(nil), urls[:i]...), urls[i+1:]...)...)
		w := startProcess(t, "worker", "--nats", strings.Join(order, ","), "--creds", worker, "--http", "",
			"--stage", "parse,discover,route,choose,answer,resolve,execute,join")
		w.waitOutput(t, "worker started", 60*time.Second)
	}

	nc, err := nats.Connect(all, nats.UserCredentials(admin), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	const outputs = 240
	var killedAt, firstAfterKill time.Time
	var mu sync.Mutex
	for i := range outputs {
		switch i {
		case outputs / 3:
			nodes[1].stop()
			mu.Lock()
			killedAt = time.Now()
			mu.Unlock()
			t.Logf("node n2 killed after %d outputs", i)
		case 2 * outputs / 3:
			nodes[1].start(t)
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
	ran := records(t, recordFile)
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

// runToolyard runs the binary and returns its combined output.
func runToolyard(args ...string) (string, error) {
	out, err := exec.Command(binary, args...).CombinedOutput()
	return string(out), err
}
