package registry_test

import (
	"context"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/workers/registry"
)

// openStore opens the registry on a fresh embedded server, with a context
// that ends with the test (at most 20 s).
func openStore(t *testing.T) (context.Context, *registry.Store) {
	t.Helper()
	ctx, store, _ := openStoreEnv(t)
	return ctx, store
}

// openStoreEnv is openStore, with the server's environment.
func openStoreEnv(t *testing.T) (context.Context, *registry.Store, *pipelinetest.Env) {
	t.Helper()
	env := pipelinetest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	store, err := registry.OpenStore(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, store, env
}
