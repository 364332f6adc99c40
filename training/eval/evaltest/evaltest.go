// Package evaltest reads the public benchmarks (shared/bench) in tests and
// benchmarks of any package, with the project's own loaders.
package evaltest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/workers/registry"
)

// Dir is the benchmarks folder: $TOOLYARD_BENCH, else shared/bench beside
// the repository (found from the module root above the working directory).
func Dir() string {
	if d := os.Getenv("TOOLYARD_BENCH"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared", "bench")
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "bench")
		}
		up := filepath.Dir(dir)
		if up == dir {
			return filepath.Join("..", "shared", "bench")
		}
		dir = up
	}
}

// Path is a file or folder of the benchmarks. Missing, it fails the test
// in CI (CI set: the data is part of what CI checks out) and skips it
// elsewhere, saying why.
func Path(t testing.TB, rel ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{Dir()}, rel...)...)
	if _, err := os.Stat(p); err != nil {
		Unavailable(t, "benchmark data (shared/bench beside the repository, or TOOLYARD_BENCH)", err)
	}
	return p
}

// Unavailable ends a test that needs something this checkout lacks (the
// benchmark data, the built word vectors): it fails in CI, where that is
// part of what is checked, and is skipped elsewhere with what is missing
// and why. Every test that needs data calls it, so none is silently
// skipped where it must run.
func Unavailable(t testing.TB, what string, err error) {
	t.Helper()
	if InCI() {
		t.Fatalf("%s missing in CI (CI=%s): %v", what, os.Getenv("CI"), err)
		return
	}
	t.Skipf("SKIPPED: %s not available here (in CI this fails): %v", what, err)
}

// InCI says whether the tests run in CI: CI is set (.ci/run sets it), and
// not to "false" or "0".
func InCI() bool {
	switch strings.ToLower(os.Getenv("CI")) {
	case "", "0", "false":
		return false
	}
	return true
}

// Tools reads a registry file, failing the test on a bad one.
func Tools(t testing.TB, path string) []schemas.Manifest {
	t.Helper()
	ms, err := registry.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// Queries reads a queries file, failing the test on a bad one.
func Queries(t testing.TB, path string) []eval.Query {
	t.Helper()
	qs, err := eval.LoadQueries(path)
	if err != nil {
		t.Fatal(err)
	}
	return qs
}
