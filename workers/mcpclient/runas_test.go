package mcpclient_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/workers/mcpclient"
)

// With WithRunAs, a root worker starts stdio servers as that user.
func TestPoolRunsStdioServersAs(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("switching users needs root")
	}
	// The test binary lives in a directory only root may enter: copy it
	// where the user can run it.
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	srv := stdioServer(t)
	exe := filepath.Join(dir, "server")
	src, err := os.Open(srv.Command[0])
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(exe, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	srv.Command = []string{exe}
	srv.Dir = dir
	p := mcpclient.NewPool(mcpclient.WithConnectTimeout(20*time.Second), mcpclient.WithRunAs(65534, 65534))
	t.Cleanup(func() { _ = p.Close() })
	pid := callText(t, p, srv, "pid", nil)
	status, err := os.ReadFile(fmt.Sprintf("/proc/%s/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "Uid:") {
			if f := strings.Fields(line); len(f) < 2 || f[1] != "65534" {
				t.Fatalf("server runs as %q, want uid 65534", line)
			}
			return
		}
	}
	t.Fatalf("no Uid line in %s", status)
}
