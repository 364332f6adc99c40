// Package itest is the harness of the integration test packages
// (integration and integration/slow): it builds the toolyard binary once per
// test binary and starts its processes, the record tool's registry and
// nats-servers run as an operator runs them. Only tests import it.
package itest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Binary is the toolyard binary built once (by Main or Build) for the tests
// that run processes.
var Binary string

// Main is the TestMain of a test package that runs the binary: it builds
// the toolyard command in cmdDir (relative to the package's directory) into
// Binary, runs the tests and exits with their status, the build removed.
func Main(m *testing.M, cmdDir string) {
	remove := Build(cmdDir)
	code := m.Run()
	remove()
	os.Exit(code)
}

// BinaryEnv names a toolyard binary already built from this tree, which
// Build then uses instead of building its own: make test builds bin/toolyard
// once and passes it to every integration package (each build is about 20
// s of CPU on the 2-core CI machine, beside the other packages' tests).
const BinaryEnv = "TOOLYARD_TEST_BINARY"

// Build builds the toolyard command in cmdDir (relative to the package's
// directory) into a temporary directory, sets Binary, and returns what
// removes the build once the tests ran; with BinaryEnv set it uses that
// binary and removes nothing. It is for a TestMain: a failed build, or a
// BinaryEnv naming no executable, is printed and exits the test binary.
func Build(cmdDir string) (remove func()) {
	if bin := os.Getenv(BinaryEnv); bin != "" {
		abs, err := filepath.Abs(bin)
		if err == nil {
			var fi os.FileInfo
			if fi, err = os.Stat(abs); err == nil && (fi.IsDir() || fi.Mode()&0o111 == 0) {
				err = fmt.Errorf("not an executable file")
			}
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s=%s: %v\n", BinaryEnv, bin, err)
			os.Exit(1)
		}
		Binary = abs
		return func() {}
	}
	dir, err := os.MkdirTemp("", "toolyard-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	Binary = filepath.Join(dir, "toolyard")
	build := exec.Command("go", "build", "-o", Binary, cmdDir)
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build toolyard:", err)
		os.Exit(1)
	}
	return func() { os.RemoveAll(dir) }
}

// Toolyard runs the binary to completion and returns its standard output.
func Toolyard(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(Binary, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("toolyard %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

// RunToolyard runs the binary and returns its combined output.
func RunToolyard(args ...string) (string, error) {
	out, err := exec.Command(Binary, args...).CombinedOutput()
	return string(out), err
}
