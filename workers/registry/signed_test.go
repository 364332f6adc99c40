package registry_test

import (
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry/sign"
)

// Importing a tool again without its signature (an importer's next sync)
// keeps the signature while the tool is unchanged, and drops it with the
// tool once it changes.
func TestImportKeepsSignatureOfUnchangedTool(t *testing.T) {
	ctx, store := openStore(t)
	m, err := schemas.ValidateManifest([]byte(`{"id":"srv/t","description":"a tool","parameters":{"type":"object","properties":{"n":{"type":"number","default":1.0}}},"executor":{"kind":"nats","subject":"srv.t"}}`))
	if err != nil {
		t.Fatal(err)
	}
	key, _ := sign.NewKey()
	signed, err := sign.Sign(m, key)
	if err != nil {
		t.Fatal(err)
	}
	get := func() schemas.Manifest {
		t.Helper()
		ms, err := store.List(ctx)
		if err != nil || len(ms) != 1 {
			t.Fatalf("%v %v", ms, err)
		}
		return ms[0]
	}
	changed := m
	changed.Description = "a changed tool"
	steps := []struct {
		name       string
		m          schemas.Manifest
		unchanged  bool
		wantSigned bool
	}{
		{"import", m, false, false},
		{"sign in place", signed, false, true},
		{"re-import unsigned, unchanged", m, true, true},
		{"re-import signed, unchanged", signed, true, true},
		{"re-import changed", changed, false, false},
	}
	for _, st := range steps {
		rep, err := store.Import(ctx, []schemas.Manifest{st.m}, true)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := len(rep.Unchanged) == 1; got != st.unchanged {
			t.Fatalf("%s: unchanged %v, want %v", st.name, got, st.unchanged)
		}
		if got := get().Signature != nil; got != st.wantSigned {
			t.Fatalf("%s: signed %v, want %v", st.name, got, st.wantSigned)
		}
	}
}
