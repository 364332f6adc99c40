package registry_test

import (
	"bytes"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// A stored tool's schema keeps its properties in the author's order: the
// resolver reads it (of two parameters a value fits, the one declared
// first), and the registry once stored schemas with sorted keys, so a tool
// resolved unlike its own manifest file (an address went to cc, declared
// after to). Spacing is normalised: an unchanged re-import, spaced
// otherwise, is still unchanged.
func TestStoreKeepsPropertyOrder(t *testing.T) {
	ctx, store := openStore(t)
	manifest := func(space string) schemas.Manifest {
		m, err := schemas.ValidateManifest([]byte(`{"id":"mail/send","description":"Send an e-mail.","parameters":{"type":"object",` +
			`"properties":{"to":{"type":"array"},` + space + `"subject":{"type":"string"},"cc":{"type":"array"}}},"executor":{"kind":"nats","subject":"mail.send"}}`))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if _, err := store.Import(ctx, []schemas.Manifest{manifest("")}, true); err != nil {
		t.Fatal(err)
	}
	ms, err := store.List(ctx)
	if err != nil || len(ms) != 1 {
		t.Fatalf("%v %v", ms, err)
	}
	want := `{"type":"object","properties":{"to":{"type":"array"},"subject":{"type":"string"},"cc":{"type":"array"}}}`
	if got := string(ms[0].Parameters); got != want {
		t.Fatalf("stored schema %s, want the declared order %s", got, want)
	}
	rep, err := store.Import(ctx, []schemas.Manifest{manifest("\n   ")}, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Unchanged) != 1 || !bytes.Equal(ms[0].Parameters, []byte(want)) {
		t.Fatalf("re-import differing only in spacing: %+v, want it unchanged", rep)
	}
}
