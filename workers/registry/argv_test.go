package registry_test

import (
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
)

// The registry refuses a subprocess tool whose argv names an undeclared
// parameter, whoever writes it: Import (every toolyard writer) writes
// nothing, and an entry put into the bucket by hand is no tool to its
// readers.
func TestRegistryRefusesUndeclaredArgvPlaceholders(t *testing.T) {
	ctx, store, env := openStoreEnv(t)
	bad := schemas.Manifest{ID: "t/grep", Description: "search text",
		Parameters: []byte(`{"type":"object","properties":{"pattern":{"type":"string"}}}`),
		Executor:   &schemas.Executor{Kind: schemas.ExecSubprocess, Argv: []string{"grep", "{q}"}}}
	good := schemas.Manifest{ID: "t/ok", Description: "fine", Executor: &schemas.Executor{Kind: schemas.ExecSubprocess, Argv: []string{"true"}}}
	const want = "placeholder {q} names no parameter of the tool's schema (it declares pattern)"
	if _, err := store.Import(ctx, []schemas.Manifest{good, bad}, false); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("import: %v, want %q", err, want)
	}
	if all, err := store.List(ctx); err != nil || len(all) != 0 {
		t.Fatalf("after a refused import the registry holds %v (%v); want nothing", all, err)
	}

	kv, err := env.JS.KeyValue(ctx, registry.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	raw := `{"id":"t/grep","description":"search text","parameters":{"type":"object","properties":{"pattern":{"type":"string"}}},"executor":{"kind":"subprocess","argv":["grep","{q}"]}}`
	if _, err := kv.Put(ctx, registry.Key("t/grep"), []byte(raw)); err != nil {
		t.Fatal(err)
	}
	if _, err := store.List(ctx); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("list with the entry put by hand: %v, want %q", err, want)
	}
}
