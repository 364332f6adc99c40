// Package evaltest reads the public benchmarks (shared/bench) in tests and
// benchmarks of any package, with the project's own loaders.
package evaltest

import (
	"os"
	"path/filepath"
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
		if os.Getenv("CI") != "" {
			t.Fatalf("benchmark data missing in CI (shared/bench beside the repository, or TOOLYARD_BENCH): %v", err)
		}
		t.Skipf("benchmark data not available (shared/bench beside the repository, or TOOLYARD_BENCH): %v", err)
	}
	return p
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
