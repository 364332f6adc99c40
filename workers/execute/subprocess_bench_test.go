package execute

import (
	"context"
	"testing"

	"github.com/toolyard/toolyard/workers/registry"
)

// BenchmarkSubprocessExecutor measures one subprocess call of a tool that
// does nothing (/bin/true) with a path argument: scratch directory,
// environment, path confinement, the limit shell, fork and exec, wait.
func BenchmarkSubprocessExecutor(b *testing.B) {
	m := tool("t/true", `{"type":"object","properties":{"path":{"type":"string"}}}`, "/bin/true", "{path}")
	e := New(registry.New(m), nil, WithRetryBudget(0))
	c := call("t/true", map[string]any{"path": "/tmp/x"})
	ctx := context.Background()
	for b.Loop() {
		if out, err := e.Execute(ctx, c); err != nil || *out.ExitCode != 0 {
			b.Fatal(err)
		}
	}
}
