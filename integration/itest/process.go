package itest

import (
	"fmt"
	"net"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// Process is a toolyard process started by a test.
type Process struct {
	// Cmd is the running command.
	Cmd *exec.Cmd
	// Output is what the process printed, standard output and error
	// together.
	Output *pipelinetest.Buffer
	// Done is closed once the process has ended.
	Done chan struct{}
}

// StartProcess runs the toolyard binary; it is killed when the test ends.
func StartProcess(t *testing.T, args ...string) *Process {
	t.Helper()
	return StartBinary(t, Binary, args...)
}

// StartBinary is StartProcess for another build of toolyard.
func StartBinary(t *testing.T, bin string, args ...string) *Process {
	t.Helper()
	p := &Process{Cmd: exec.Command(bin, args...), Output: &pipelinetest.Buffer{}, Done: make(chan struct{})}
	p.Cmd.Stdout, p.Cmd.Stderr = p.Output, p.Output
	p.Cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.Cmd.Wait(); close(p.Done) }()
	t.Cleanup(func() {
		p.Kill(syscall.SIGKILL)
		if t.Failed() {
			t.Logf("output of toolyard %s:\n%s", strings.Join(args, " "), p.Output.String())
		}
	})
	return p
}

// Kill signals the process (and its children) and waits for it to end.
func (p *Process) Kill(sig syscall.Signal) {
	select {
	case <-p.Done:
		return
	default:
	}
	_ = syscall.Kill(-p.Cmd.Process.Pid, sig)
	select {
	case <-p.Done:
	case <-time.After(20 * time.Second):
		_ = syscall.Kill(-p.Cmd.Process.Pid, syscall.SIGKILL)
		<-p.Done
	}
}

// WaitOutput waits until the process has printed s.
func (p *Process) WaitOutput(t *testing.T, s string, wait time.Duration) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !strings.Contains(p.Output.String(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("process did not print %q within %s; output:\n%s", s, wait, p.Output.String())
		}
		select {
		case <-p.Done:
			t.Fatalf("process exited before printing %q; output:\n%s", s, p.Output.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// StartUp starts 'toolyard up' on a free port, with its data in data (a
// fresh temporary directory when ""), no HTTP endpoint unless extra sets
// one, and extra's flags; it returns once up serves, with up's NATS URL.
func StartUp(t *testing.T, data string, extra ...string) (*Process, string) {
	t.Helper()
	if data == "" {
		data = t.TempDir()
	}
	port := FreePort(t)
	args := append([]string{"up", "--data", UseData(t, data), "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--http", ""}, extra...)
	up := StartProcess(t, args...)
	up.WaitOutput(t, "Stop with Ctrl-C", 90*time.Second)
	return up, fmt.Sprintf("nats://127.0.0.1:%d", port)
}

// UseData makes dir the data directory of the 'toolyard up' the test
// starts, whose admin credential the other processes then use; it
// returns dir.
func UseData(t *testing.T, dir string) string {
	t.Helper()
	t.Setenv("TOOLYARD_DATA", dir)
	return dir
}

// FreePort returns a loopback port nobody listens on.
func FreePort(t *testing.T) int {
	t.Helper()
	return FreePorts(t, 1)[0]
}

// FreePorts returns n distinct loopback ports nobody listens on. Each is
// held open until all are chosen: a port closed at once can be handed out
// again by the next call (six ports chosen one after another held a
// duplicate in 60 of 20,000 sets here), and two listeners of one test on
// one port fail it.
func FreePorts(t *testing.T, n int) []int {
	t.Helper()
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}
