package slow

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/toolyard/toolyard/integration/itest"
)

// retryToolyard runs the binary until it succeeds (a cluster's meta leader
// and a new stream's leader take a moment to be elected) and returns its
// output.
func retryToolyard(t *testing.T, wait time.Duration, args ...string) string {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		out, err := itest.RunToolyard(args...)
		if err == nil {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("toolyard %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		time.Sleep(time.Second)
	}
}

// On a cluster with R3 streams, the KV buckets and object stores (the
// registry, models, executions, the stages' state) are R3 too: a worker
// started while any one server is down still starts. A bucket created at
// one replica (before the streams were R3, or by an earlier version) is
// listed by 'streams diff' and raised by 'streams apply --replicas 3'.
func TestClusterBucketsFollowStreamReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("three servers and two worker processes")
	}
	nodes, urls, keys := itest.StartCluster(t)
	all := strings.Join(urls, ",")
	admin, worker := filepath.Join(keys, "creds", "admin.creds"), filepath.Join(keys, "creds", "worker.creds")
	reg, _ := itest.RecordRegistry(t)

	// The registry imported before the streams exist: its bucket has no
	// R3 stream to follow yet.
	retryToolyard(t, 60*time.Second, "tools", "import", "--nats", all, "--creds", admin, reg)
	diff := retryToolyard(t, 30*time.Second, "streams", "diff", "--replicas", "3", "--nats", all, "--creds", admin)
	if !strings.Contains(diff, "bucket tools (KV_tools) replicas: 1 on the server, 3 here") {
		t.Errorf("streams diff --replicas 3 does not list the one-replica registry bucket:\n%s", diff)
	}
	if !strings.Contains(diff, "PIPE does not exist yet") {
		t.Errorf("streams diff before any stream exists does not say so:\n%s", diff)
	}
	if out := retryToolyard(t, 60*time.Second, "streams", "apply", "--replicas", "3", "--yes", "--nats", all, "--creds", admin); !strings.Contains(out, "created AGENT, PIPE, RESULT, AUDIT, DLQ (3 replica(s))") {
		t.Errorf("streams apply does not say it created the streams:\n%s", out)
	}

	w := itest.StartProcess(t, "worker", "--nats", all, "--creds", worker, "--http", "",
		"--stage", "parse,discover,route,choose,answer,resolve,execute,join,predict")
	w.WaitOutput(t, "worker started", 60*time.Second)

	js := itest.ConnectJS(t, all, nats.UserCredentials(admin))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var toolsLeader string
	buckets := 0
	l := js.ListStreams(ctx)
	for info := range l.Info() {
		name := info.Config.Name
		if !strings.HasPrefix(name, "KV_") && !strings.HasPrefix(name, "OBJ_") {
			continue
		}
		buckets++
		if info.Config.Replicas != 3 {
			t.Errorf("%s has %d replica(s) on a cluster whose streams are R3", name, info.Config.Replicas)
		}
		if name == "KV_tools" && info.Cluster != nil {
			toolsLeader = info.Cluster.Leader
		}
	}
	if err := l.Err(); err != nil {
		t.Fatal(err)
	}
	if toolsLeader == "" {
		t.Fatalf("%d buckets and no leader of the registry's", buckets)
	}
	if out := retryToolyard(t, 30*time.Second, "streams", "diff", "--replicas", "3", "--nats", all, "--creds", admin); !strings.Contains(out, "match") {
		t.Errorf("after streams apply, streams diff still differs:\n%s", out)
	}

	// A bucket raised to three replicas has two new ones to catch up: until
	// they are current, losing its leader leaves no one to elect (as it
	// would an operator who stops a server right after 'streams apply').
	caughtUp := time.Now().Add(30 * time.Second)
	for {
		s, err := js.Stream(ctx, "KV_tools")
		if err == nil && s.CachedInfo().Cluster != nil && len(s.CachedInfo().Cluster.Replicas) == 2 {
			current := 0
			for _, r := range s.CachedInfo().Cluster.Replicas {
				if r.Current && !r.Offline {
					current++
				}
			}
			if current == 2 {
				toolsLeader = s.CachedInfo().Cluster.Leader
				break
			}
		}
		if time.Now().After(caughtUp) {
			t.Fatalf("the registry's replicas are not current 30s after streams apply (err %v)", err)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// The server that led the registry goes down; a new worker on the
	// other two starts all the same.
	var others []string
	for i, n := range nodes {
		if n.Server.Name() == toolsLeader {
			n.Stop()
			continue
		}
		others = append(others, urls[i])
	}
	if len(others) != 2 {
		t.Fatalf("registry leader %q is none of the nodes", toolsLeader)
	}
	// (once the registry's other replicas have elected a new leader: a
	// bucket at one replica never gets one)
	deadline := time.Now().Add(30 * time.Second)
	for {
		s, err := js.Stream(ctx, "KV_tools")
		if err == nil && s.CachedInfo().Cluster != nil {
			if l := s.CachedInfo().Cluster.Leader; l != "" && l != toolsLeader {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the registry has no leader 30s after %s stopped (err %v)", toolsLeader, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	w2 := itest.StartProcess(t, "worker", "--nats", strings.Join(others, ","), "--creds", worker, "--http", "",
		"--stage", "parse,discover,route,choose,answer,resolve,execute,join,predict")
	w2.WaitOutput(t, "worker started", 60*time.Second)
}
