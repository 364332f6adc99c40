package integration

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// An admin command run with a credential that may not do it says that the
// server refused it and which credential it needs, not only "context
// deadline exceeded" (the refused request is never answered).
func TestAdminCommandWithWorkerCredentialSaysRefused(t *testing.T) {
	url, keys := startSecuredNode(t)
	admin, worker := filepath.Join(keys, "creds", "admin.creds"), filepath.Join(keys, "creds", "worker.creds")
	toolyard(t, "streams", "apply", "--yes", "--nats", url, "--creds", admin)

	for _, tc := range []struct {
		name    string
		args    []string
		refused string
	}{
		{"purge the DLQ", []string{"dlq", "purge", "--yes"}, `Publish to "$JS.API.STREAM.PURGE.DLQ"`},
		{"change a stream", []string{"streams", "apply", "--yes", "--retention", "AGENT=12h"}, `Permissions Violation for Publish to "$JS.API.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := exec.Command(binary, append(tc.args, "--nats", url, "--creds", worker)...).CombinedOutput()
			if err == nil {
				t.Fatalf("a worker credential did it:\n%s", out)
			}
			last := lastLine(string(out))
			if !strings.Contains(last, "the server refused") || !strings.Contains(last, tc.refused) || !strings.Contains(last, "admin credential") {
				t.Errorf("the error does not say the server refused %s and which credential it needs:\n%s", tc.refused, out)
			}
		})
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
