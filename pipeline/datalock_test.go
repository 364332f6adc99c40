//go:build unix

package pipeline

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A second server on the same data directory is refused at once, naming
// the process that has it; once the first stops, the directory is free.
func TestDataDirectoryLock(t *testing.T) {
	dir := t.TempDir()
	first, err := StartServer(WithDataDir(dir), WithListen("127.0.0.1", -1))
	if err != nil {
		t.Fatal(err)
	}
	_, err = StartServer(WithDataDir(dir), WithListen("127.0.0.1", -1))
	want := fmt.Sprintf("%s is in use by process %d", dir, os.Getpid())
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("second server on the same data: %v, want %q", err, want)
	}
	first.Shutdown()
	again, err := StartServer(WithDataDir(dir), WithListen("127.0.0.1", -1))
	if err != nil {
		t.Fatalf("after the first stopped: %v", err)
	}
	again.Shutdown()
}

// Start-up failures name their cause: an unwritable directory, a port in use.
func TestStartServerNamesTheCause(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Log("running as root: the unwritable-directory case is checked with a file in the way instead of permissions")
	}
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := StartServer(WithDataDir(filepath.Join(file, "data")), WithListen("127.0.0.1", -1)); err == nil || !strings.Contains(err.Error(), "data directory") {
		t.Errorf("data under a file: %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	_, err = StartServer(WithDataDir(t.TempDir()), WithListen("127.0.0.1", port))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("cannot listen on 127.0.0.1:%d", port)) {
		t.Errorf("port in use: %v", err)
	}
}
