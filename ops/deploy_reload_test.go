package ops_test

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/auth"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// TestComposeNATSReload runs two real nats-server processes the way
// compose.yaml starts its servers (nats.conf, the trust from the keys
// volume, the same flags), routed to each other, and reloads one with
// SIGHUP: the configuration must reload, as an operator's upgrade step
// (ops/OPERATING.md) asks. With the name and cluster name given as flags,
// which nats-server does not re-apply on a reload, it failed.
func TestComposeNATSReload(t *testing.T) {
	if testing.Short() {
		t.Skip("builds nats-server")
	}
	dir := t.TempDir()
	// The layout of the containers: /keys/nats-auth.conf, /etc/nats/nats.conf.
	keys, err := auth.LoadOrCreateKeys(filepath.Join(dir, "keys"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := keys.Trust()
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(dir, "keys", "nats-auth.conf"), tr.ServerConfig(pipeline.MaxControlLine))
	conf, err := os.ReadFile("deploy/nats.conf")
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(dir, "etc", "nats", "nats.conf"), string(conf))

	bin := filepath.Join(dir, "nats-server")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/nats-io/nats-server/v2").CombinedOutput(); err != nil {
		t.Fatalf("build nats-server: %v\n%s", err, out)
	}
	ports := freePorts(t, 4)
	start := func(name string, cluster, route int) (*exec.Cmd, *pipelinetest.Buffer) {
		cmd := exec.Command(bin, "-c", filepath.Join(dir, "etc", "nats", "nats.conf"), "-a", "127.0.0.1", "-p", "-1",
			"--js", "--sd", filepath.Join(dir, name),
			"--cluster", "nats://127.0.0.1:"+itoa(cluster), "--routes", "nats://127.0.0.1:"+itoa(route))
		cmd.Env = append(os.Environ(), "NATS_NAME="+name)
		log := &pipelinetest.Buffer{}
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		return cmd, log
	}
	first, firstLog := start("nats-1", ports[0], ports[1])
	_, secondLog := start("nats-2", ports[1], ports[0])
	for _, l := range []*pipelinetest.Buffer{firstLog, secondLog} {
		waitFor(t, l, "Server is ready", 20*time.Second)
	}
	if !strings.Contains(firstLog.String(), "nats-1") {
		t.Fatalf("the server did not take its name from NATS_NAME:\n%s", firstLog)
	}
	if err := first.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitFor(t, firstLog, "Reloaded server configuration", 10*time.Second)
	if strings.Contains(firstLog.String(), "Failed to reload") {
		t.Fatalf("reload failed:\n%s", firstLog)
	}
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// freePorts returns n loopback ports free when asked.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var out []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

// waitFor waits until l holds s.
func waitFor(t *testing.T, l *pipelinetest.Buffer, s string, d time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(d); !strings.Contains(l.String(), s); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q within %s:\n%s", s, d, l)
		}
	}
}
