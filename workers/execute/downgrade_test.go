package execute

import (
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/registry/sign"
)

// A worker that verified version N of a signed tool refuses an older
// signed version that appears in its registry afterwards (written past the
// registry's import check), and refuses tools signed by a revoked key.
func TestSignedDowngradeAndRevokedKeyRefused(t *testing.T) {
	key, _ := sign.NewKey()
	pub, _ := key.PublicKey()
	leaked, _ := sign.NewKey()
	leakedPub, _ := leaked.PublicKey()
	trust, err := sign.NewTrust(pub, leakedPub)
	if err != nil {
		t.Fatal(err)
	}
	if err := trust.Revoke(leakedPub); err != nil {
		t.Fatal(err)
	}
	v := func(word string, serial int64) schemas.Manifest {
		m, err := sign.Sign(tool("t/v", "", "echo", word), key, sign.WithSerial(serial))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	v1, v2 := v("one", 1), v("two", 2)
	byLeaked, err := sign.Sign(tool("t/leaked", "", "echo", "leaked"), leaked)
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.New(v2, byLeaked)
	e := New(reg, nil, WithSignatures(trust, true))
	steps := []struct {
		name string
		put  *schemas.Manifest
		tool string
		code string
		out  string
	}{
		{"v2 runs", nil, "t/v", "", "two\n"},
		{"v1 written behind the registry's back", &v1, "t/v", CodeDowngradedTool, ""},
		{"v2 again", &v2, "t/v", "", "two\n"},
		{"revoked key", nil, "t/leaked", CodeRevokedKey, ""},
	}
	for _, st := range steps {
		if st.put != nil {
			reg.Put(*st.put)
		}
		out, err := run(t, e, call(st.tool, nil))
		if st.code == "" {
			if err != nil || out.Content != st.out {
				t.Fatalf("%s: %v %+v", st.name, err, out)
			}
			continue
		}
		if err == nil || errorCode(err) != st.code {
			t.Fatalf("%s: err = %v (code %s), want %s", st.name, err, errorCode(err), st.code)
		}
	}
}
