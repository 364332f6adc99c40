package itest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// TestMaxFileStore is the JetStream store the tests' own servers are
// given: the built-in stream sizes reserve about 14 GiB, which a server
// sizing its store from the free disk (three quarters of it) cannot on a
// fuller disk, while the tests store a few megabytes.
const TestMaxFileStore = "64GB"

// NATSConnect connects to url as the admin of the test's data directory
// (TOOLYARD_DATA, set by UseData and the integration package's startEnv).
func NATSConnect(url string, opts ...nats.Option) (*nats.Conn, error) {
	if d := os.Getenv("TOOLYARD_DATA"); d != "" {
		opts = append([]nats.Option{nats.UserCredentials(pipelinetest.AdminCreds(d))}, opts...)
	}
	return nats.Connect(url, opts...)
}

// ConnectJS connects to the server at url, closed when the test ends.
func ConnectJS(t *testing.T, url string, opts ...nats.Option) jetstream.JetStream {
	t.Helper()
	nc, err := NATSConnect(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// ClusterNode is a nats-server run from a configuration file, as an
// operator runs one (a node of a test cluster, restartable on its store).
type ClusterNode struct {
	// Conf is the node's configuration file.
	Conf string
	// Server is the running server, nil while the node is stopped.
	Server *server.Server
}

// Start starts the node's server (see TryStart), failing the test when it
// does not.
func (n *ClusterNode) Start(t *testing.T) {
	t.Helper()
	if err := n.TryStart(); err != nil {
		t.Fatal(err)
	}
}

// TryStart starts the node's server and waits until it listens for
// clients and routes. One that does not says why: a server without a
// logger drops its listener's error (its Fatalf logs nothing and does not
// exit), which its health check still carries.
func (n *ClusterNode) TryStart() error {
	opts, err := server.ProcessConfigFile(n.Conf)
	if err != nil {
		return fmt.Errorf("%s: %w", n.Conf, err)
	}
	opts.NoSigs = true
	ns, err := server.NewServer(opts)
	if err != nil {
		return fmt.Errorf("%s: %w", n.Conf, err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(20 * time.Second) {
		why := ns.Healthz(&server.HealthzOptions{}).Error
		ns.Shutdown()
		ns.WaitForShutdown()
		return fmt.Errorf("%s not ready after 20 s: %s", n.Conf, why)
	}
	n.Server = ns
	return nil
}

// Stop shuts the node's server down, if it runs, and waits until it has.
func (n *ClusterNode) Stop() {
	if n.Server != nil {
		n.Server.Shutdown()
		n.Server.WaitForShutdown()
		n.Server = nil
	}
}

// StartSecuredNode starts one JetStream server trusting the keys 'toolyard
// creds server-config' writes, as an operator runs it; it returns its
// client URL and the directory of the keys and credentials (creds/admin.creds,
// creds/worker.creds).
func StartSecuredNode(t *testing.T) (url, keys string) {
	t.Helper()
	dir := t.TempDir()
	keys = filepath.Join(dir, "keys")
	Toolyard(t, "creds", "server-config", "--data", keys, "--out", filepath.Join(dir, "auth.conf"))
	port := FreePort(t)
	conf := filepath.Join(dir, "nats.conf")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf("listen: 127.0.0.1:%d\njetstream { store_dir: %q, max_file_store: "+TestMaxFileStore+" }\ninclude ./auth.conf\n",
		port, filepath.Join(dir, "js"))), 0o600); err != nil {
		t.Fatal(err)
	}
	node := &ClusterNode{Conf: conf}
	node.Start(t)
	t.Cleanup(node.Stop)
	return fmt.Sprintf("nats://127.0.0.1:%d", port), keys
}

// StartCluster starts three JetStream servers routed to each other, trusting
// the keys 'toolyard creds server-config' writes; it returns the nodes,
// their client URLs and the directory of the keys and credentials.
func StartCluster(t *testing.T) ([]*ClusterNode, []string, string) {
	t.Helper()
	dir := t.TempDir()
	keys := filepath.Join(dir, "keys")
	Toolyard(t, "creds", "server-config", "--data", keys, "--out", filepath.Join(dir, "auth.conf"))
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

// startNodes starts the three nodes of StartCluster on ports of their own,
// with their configurations and stores in dir/<attempt>; on an error it
// stops those that started.
func startNodes(t *testing.T, dir string, attempt int) ([]*ClusterNode, []string, error) {
	t.Helper()
	ports := FreePorts(t, 6)
	clientPorts, routePorts := ports[:3], ports[3:]
	var routes []string
	for _, p := range routePorts {
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", p))
	}
	sub := filepath.Join(dir, fmt.Sprint(attempt))
	if err := os.MkdirAll(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	var nodes []*ClusterNode
	var urls []string
	for i := range 3 {
		conf := filepath.Join(sub, fmt.Sprintf("n%d.conf", i+1))
		if err := os.WriteFile(conf, []byte(fmt.Sprintf(`server_name: n%d
listen: 127.0.0.1:%d
jetstream { store_dir: %q, max_file_store: `+TestMaxFileStore+` }
cluster { name: toolyard, listen: 127.0.0.1:%d, routes: [%s] }
include ../auth.conf
`, i+1, clientPorts[i], filepath.Join(sub, fmt.Sprintf("js%d", i+1)), routePorts[i], strings.Join(routes, ", "))), 0o600); err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, &ClusterNode{Conf: conf})
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", clientPorts[i]))
	}
	// Started together: each waits for its routes to the others. Failures
	// are returned to the test's goroutine (t.Fatal may not be called from
	// another).
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = n.TryStart() }()
	}
	wg.Wait()
	stopAll := func() {
		for _, n := range nodes {
			n.Stop()
		}
	}
	if err := errors.Join(errs...); err != nil {
		stopAll()
		return nil, nil, err
	}
	t.Cleanup(stopAll)
	return nodes, urls, nil
}
