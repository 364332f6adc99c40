package registry_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry/sign"
)

// A signed tool cannot be replaced by an older signed version, not even
// after it was removed; newer versions and unchanged re-imports go in,
// and the bookkeeping never shows up as a tool.
func TestImportRefusesOlderSignedVersion(t *testing.T) {
	ctx, store := openStore(t)
	key, _ := sign.NewKey()
	version := func(desc string, serial int64) schemas.Manifest {
		m, err := schemas.ValidateManifest([]byte(`{"id":"ops/deploy","description":"` + desc + `","executor":{"kind":"subprocess","argv":["echo","` + desc + `"]}}`))
		if err != nil {
			t.Fatal(err)
		}
		if m, err = sign.Sign(m, key, sign.WithSerial(serial)); err != nil {
			t.Fatal(err)
		}
		return m
	}
	v1, v2, v3 := version("deploy v1 (vulnerable)", 10), version("deploy v2", 20), version("deploy v3", 30)
	replayed := version("deploy v2, other content", 20)
	steps := []struct {
		name    string
		remove  bool
		m       schemas.Manifest
		wantErr string
		want    string // description registered afterwards
	}{
		{"import v1", false, v1, "", v1.Description},
		{"upgrade to v2", false, v2, "", v2.Description},
		{"v2 again is unchanged", false, v2, "", v2.Description},
		{"downgrade to v1", false, v1, "signature serial 10 is older than serial 20 already seen", v2.Description},
		{"same serial, other content", false, replayed, "serial 20 was already used", v2.Description},
		{"v1 after removing the tool", true, v1, "signature serial 10 is older than serial 20", ""},
		{"the same v2 after removing", false, v2, "", v2.Description},
		{"remove again", true, replayed, "serial 20 was already used", ""},
		{"v3 after removing", false, v3, "", v3.Description},
	}
	for _, st := range steps {
		if st.remove {
			if _, err := store.Remove(ctx, "ops/deploy"); err != nil {
				t.Fatal(err)
			}
		}
		_, err := store.Import(ctx, []schemas.Manifest{st.m}, true)
		if st.wantErr == "" && err != nil || st.wantErr != "" && (!errors.Is(err, sign.ErrDowngrade) || !strings.Contains(err.Error(), st.wantErr)) {
			t.Fatalf("%s: err = %v, want %q", st.name, err, st.wantErr)
		}
		ms, err := store.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if len(ms) == 1 {
			got = ms[0].Description
		}
		if len(ms) > 1 || got != st.want {
			t.Fatalf("%s: registry holds %+v, want %q", st.name, ms, st.want)
		}
	}
}
