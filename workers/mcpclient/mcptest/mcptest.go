// Package mcptest finds the real MCP servers that `make mcp-servers`
// installs from npm (package.json and package-lock.json at the repository
// root, into node_modules/), for tests.
//
// A test that needs one calls Bin. When the server is not installed the test
// fails — in CI (CI=true) and wherever node is installed, since then `make
// mcp-servers` would have installed it — and is skipped, saying why, only
// on a machine without node.
package mcptest

import (
	"fmt"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Servers installed by make mcp-servers (their node_modules/.bin names).
const (
	Everything = "mcp-server-everything"
	Filesystem = "mcp-server-filesystem"
	Inspector  = "mcp-inspector"
	// Conformance is the MCP conformance suite (@modelcontextprotocol/conformance).
	Conformance = "conformance"
)

// RepoRoot is the directory holding go.mod, found upwards from the working
// directory.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Bin is the absolute path of an installed server's executable
// (node_modules/.bin/name).
func Bin(t testing.TB, name string) string {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "node_modules", ".bin", name)
	if _, err := os.Stat(path); err == nil {
		if _, err := exec.LookPath("node"); err != nil {
			t.Fatalf("%s is installed but node is not on PATH", path)
		}
		return path
	}
	if _, err := exec.LookPath("node"); err != nil {
		evaltest.Unavailable(t, fmt.Sprintf("node (the real MCP server %s runs on it; install Node.js 22+ and run make mcp-servers)", name), err)
	}
	t.Fatalf("MCP server %s is not installed at %s: run make mcp-servers (npm ci from package-lock.json)", name, path)
	return ""
}
