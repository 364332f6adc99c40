package sign_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/nkeys"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry/sign"
)

func manifest(t testing.TB, doc string) schemas.Manifest {
	t.Helper()
	m, err := schemas.ValidateManifest([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func writeScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSignVerify(t *testing.T) {
	dir := t.TempDir()
	script := writeScript(t, dir, "tool.sh", "#!/bin/sh\necho hi\n")
	key, err := sign.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := key.PublicKey()
	other, _ := sign.NewKey()
	otherPub, _ := other.PublicKey()
	trust, err := sign.NewTrust(pub)
	if err != nil {
		t.Fatal(err)
	}
	base := manifest(t, `{"id":"t/run","description":"Run the tool script","parameters":{"type":"object","properties":{"n":{"type":"integer","default":3}}},
		"executor":{"kind":"subprocess","argv":["/bin/sh","`+script+`","{n}"],"timeout":"5s"},"permissions":["fs.read"]}`)
	signed, err := sign.Sign(base, key)
	if err != nil {
		t.Fatal(err)
	}
	if got := signed.Signature.Files; len(got) != 1 || got[script] == "" {
		t.Fatalf("signed files = %v, want the script %s", got, script)
	}

	tests := []struct {
		name   string
		mutate func(t *testing.T, m *schemas.Manifest)
		trust  *sign.Trust
		want   error
	}{
		{"valid", func(*testing.T, *schemas.Manifest) {}, trust, nil},
		{"unsigned", func(_ *testing.T, m *schemas.Manifest) { m.Signature = nil }, trust, sign.ErrUnsigned},
		{"description changed", func(_ *testing.T, m *schemas.Manifest) { m.Description += "!" }, trust, sign.ErrBadSignature},
		{"argv changed", func(_ *testing.T, m *schemas.Manifest) {
			x := *m.Executor
			x.Argv = []string{"/bin/sh", "-c", "rm -rf {n}"}
			m.Executor = &x
		}, trust, sign.ErrBadSignature},
		{"permission dropped", func(_ *testing.T, m *schemas.Manifest) { m.Permissions = nil }, trust, sign.ErrBadSignature},
		{"schema default changed", func(_ *testing.T, m *schemas.Manifest) {
			m.Parameters = json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","default":4}}}`)
		}, trust, sign.ErrBadSignature},
		{"signed files changed", func(_ *testing.T, m *schemas.Manifest) {
			s := *m.Signature
			s.Files = map[string]string{}
			m.Signature = &s
		}, trust, sign.ErrBadSignature},
		{"signature garbled", func(_ *testing.T, m *schemas.Manifest) {
			s := *m.Signature
			s.Sig = "not*base64"
			m.Signature = &s
		}, trust, sign.ErrBadSignature},
		{"key swapped for another", func(_ *testing.T, m *schemas.Manifest) {
			s := *m.Signature
			s.Key = otherPub
			m.Signature = &s
		}, mustTrust(t, pub, otherPub), sign.ErrBadSignature},
		{"untrusted key", func(*testing.T, *schemas.Manifest) {}, mustTrust(t, otherPub), sign.ErrUntrusted},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := signed
			tc.mutate(t, &m)
			err := sign.Verify(m, tc.trust)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("Verify: %v", err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("Verify = %v, want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), "t/run") {
				t.Errorf("error %q does not name the tool", err)
			}
		})
	}

	t.Run("script tampered", func(t *testing.T) {
		writeScript(t, dir, "tool.sh", "#!/bin/sh\necho pwned\n")
		t.Cleanup(func() { writeScript(t, dir, "tool.sh", "#!/bin/sh\necho hi\n") })
		err := sign.Verify(signed, trust)
		if !errors.Is(err, sign.ErrBadSignature) || !strings.Contains(err.Error(), "changed since it was signed") {
			t.Fatalf("Verify = %v, want a changed-script error", err)
		}
	})
	t.Run("script removed", func(t *testing.T) {
		if err := os.Rename(script, script+".away"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Rename(script+".away", script) })
		err := sign.Verify(signed, trust)
		if !errors.Is(err, sign.ErrBadSignature) || !strings.Contains(err.Error(), "missing") {
			t.Fatalf("Verify = %v, want a missing-script error", err)
		}
	})
}

// A script that did not exist when the tool was signed is not run on the
// strength of the signature.
func TestScriptAppearingAfterSigningIsRefused(t *testing.T) {
	dir := t.TempDir()
	later := filepath.Join(dir, "later.py")
	key, _ := sign.NewKey()
	pub, _ := key.PublicKey()
	m := manifest(t, `{"id":"t/later","description":"d","executor":{"kind":"subprocess","argv":["python3","`+later+`"]}}`)
	signed, err := sign.Sign(m, key)
	if err != nil {
		t.Fatal(err)
	}
	if err := sign.Verify(signed, mustTrust(t, pub)); err != nil {
		t.Fatalf("before the script exists: %v", err)
	}
	writeScript(t, dir, "later.py", "print('planted')\n")
	if err := sign.Verify(signed, mustTrust(t, pub)); !errors.Is(err, sign.ErrBadSignature) || !strings.Contains(err.Error(), "not covered") {
		t.Fatalf("Verify = %v, want a not-covered error", err)
	}
}

// The signature survives what the registry does to a manifest: JSON
// re-encoding with other key order and spacing, durations in milliseconds,
// the bare-string executor form.
func TestSignatureSurvivesReencoding(t *testing.T) {
	key, _ := sign.NewKey()
	pub, _ := key.PublicKey()
	trust := mustTrust(t, pub)
	signed, err := sign.Sign(manifest(t, `{"id":"t/a","description":"A <tool> & more","parameters":{"type":"object","properties":{"x":{"type":"number","default":1.50}}},
		"executor":{"kind":"http","url":"https://api.example.com/a","timeout":2500}}`), key)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.MarshalIndent(signed, "", "   ")
	if err != nil {
		t.Fatal(err)
	}
	var generic map[string]any
	if err := json.Unmarshal(data, &generic); err != nil {
		t.Fatal(err)
	}
	// Reorder: a generic map encodes sorted, unlike the struct.
	data, _ = json.Marshal(generic)
	again := manifest(t, string(data))
	if err := sign.Verify(again, trust); err != nil {
		t.Fatalf("after re-encoding: %v\n%s", err, data)
	}

	alias, err := sign.Sign(manifest(t, `{"id":"t/b","description":"B","executor":"t/a"}`), key)
	if err != nil {
		t.Fatal(err)
	}
	data, _ = json.Marshal(alias)
	if !strings.Contains(string(data), `"kind":"tool"`) {
		t.Fatalf("bare-string executor not in its object form: %s", data)
	}
	if err := sign.Verify(manifest(t, string(data)), trust); err != nil {
		t.Fatal(err)
	}
}

func TestCanonicalForm(t *testing.T) {
	m := manifest(t, `{"description":"x < y & \u2028", "id":"t/c", "keywords":["b","a"], "executor":{"timeout":"1m30s","kind":"nats","subject":"svc.x"},
		"parameters":{"type":"object","properties":{"n":{"type":"number","maximum":1e21,"minimum":0.0000001}}}}`)
	got, err := sign.Canonical(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"description":"x < y & \u2028","executor":{"kind":"nats","subject":"svc.x","timeout":"1m30s"},"id":"t/c","keywords":["b","a"],"name":"t/c",` +
		`"parameters":{"properties":{"n":{"maximum":1e+21,"minimum":1e-7,"type":"number"}},"type":"object"},"type":"tool"}`
	if string(got) != want {
		t.Fatalf("canonical\n got %s\nwant %s", got, want)
	}
	p, err := sign.Payload(m)
	if err != nil {
		t.Fatal(err)
	}
	if string(p) != "toolyard.manifest.v1\n"+want {
		t.Fatalf("payload %q", p)
	}
}

func TestScripts(t *testing.T) {
	dir := t.TempDir()
	a := writeScript(t, dir, "a.sh", "a")
	writeScript(t, dir, "b.py", "b")
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		x    string
		want []string
	}{
		{"absolute argument", `{"kind":"subprocess","argv":["sh","` + a + `"]}`, []string{a}},
		{"command on PATH is not a script", `{"kind":"subprocess","argv":["sh","-c","echo"]}`, nil},
		{"system interpreter is not a script", `{"kind":"subprocess","argv":["/bin/sh","/usr/bin/env","` + a + `"]}`, []string{a}},
		{"command by path", `{"kind":"subprocess","argv":["` + a + `","x"]}`, []string{a}},
		{"relative to dir", `{"kind":"subprocess","dir":"` + dir + `","argv":["python3","b.py","./a.sh"]}`, []string{a, filepath.Join(dir, "b.py")}},
		{"relative without dir", `{"kind":"subprocess","argv":["python3","b.py"]}`, nil},
		{"placeholder", `{"kind":"subprocess","argv":["cat","` + dir + `/{name}"]}`, nil},
		{"literal braces are not a placeholder", `{"kind":"subprocess","argv":["awk","{{print}}","` + a + `"]}`, []string{a}},
		{"directory", `{"kind":"subprocess","argv":["ls","` + dir + `/sub"]}`, nil},
		{"duplicate", `{"kind":"subprocess","argv":["sh","` + a + `","` + a + `"]}`, []string{a}},
		{"mcp stdio command", `{"kind":"mcp","tool":"x","command":["node","` + a + `"]}`, []string{a}},
		{"http", `{"kind":"http","url":"` + a + `"}`, nil},
		{"const parameter handed down a delegation", `{"kind":"tool","tool":"py/runtime"}`, []string{a}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			params := ""
			if tc.name == "placeholder" {
				// A placeholder must name a declared parameter.
				params = `,"parameters":{"type":"object","properties":{"name":{"type":"string"}}}`
			}
			m := manifest(t, `{"id":"t/s","description":"d","executor":`+tc.x+params+`}`)
			if tc.name == "const parameter handed down a delegation" {
				m.Parameters = json.RawMessage(`{"type":"object","properties":{"script_path":{"type":"string","const":"` + a + `"},"x":{"const":"relative.py"},"y":{"default":"` + a + `x"}}}`)
			}
			got := sign.Scripts(m)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("Scripts = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLoadKey(t *testing.T) {
	dir := t.TempDir()
	acct, _ := nkeys.CreateAccount()
	seed, _ := acct.Seed()
	user, _ := nkeys.CreateUser()
	useed, _ := user.Seed()
	good := filepath.Join(dir, "acct.nk")
	bad := filepath.Join(dir, "user.nk")
	_ = os.WriteFile(good, append(seed, '\n'), 0o600)
	_ = os.WriteFile(bad, useed, 0o600)
	kp, err := sign.LoadKey(good)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := acct.PublicKey()
	if got, _ := kp.PublicKey(); got != want {
		t.Fatalf("public key %s, want %s", got, want)
	}
	if _, err := sign.LoadKey(bad); err == nil || !strings.Contains(err.Error(), "not an account seed") {
		t.Fatalf("user seed: %v, want refused", err)
	}
	if _, err := sign.LoadKey(filepath.Join(dir, "none")); err == nil {
		t.Fatal("missing file accepted")
	}
	upub, _ := user.PublicKey()
	if _, err := sign.NewTrust(upub); err == nil {
		t.Fatal("a user public key was trusted")
	}
	if _, err := sign.NewTrust(); err == nil {
		t.Fatal("an empty trust list was accepted")
	}
}

// Any valid manifest signs and verifies, and still verifies after a JSON
// round trip.
func FuzzSignRoundTrip(f *testing.F) {
	f.Add(`{"id":"a/b","description":"d"}`)
	f.Add(`{"id":"a/b","description":"d","parameters":{"type":"object","properties":{"x":{"type":"number","default":0.1,"enum":[1e300,-0]}}},"keywords":["é","\u0000"]}`)
	f.Add(`{"id":"a/b","description":"<&>","executor":{"kind":"http","url":"http://h/{x}","headers":{"A":"{x}"},"timeout":1.5}}`)
	key, _ := sign.NewKey()
	pub, _ := key.PublicKey()
	trust, _ := sign.NewTrust(pub)
	f.Fuzz(func(t *testing.T, doc string) {
		m, err := schemas.ValidateManifest([]byte(doc))
		if err != nil {
			return
		}
		signed, err := sign.Sign(m, key)
		if err != nil {
			t.Fatal(err)
		}
		if err := sign.Verify(signed, trust); err != nil {
			t.Fatalf("fresh signature: %v", err)
		}
		data, err := json.Marshal(signed)
		if err != nil {
			t.Fatal(err)
		}
		again, err := schemas.ValidateManifest(data)
		if err != nil {
			// Not a signing matter: encoding/json matches member names
			// case-insensitively ("eXeCutor"), the JSON Schema does not, so a
			// few inputs validate only in their original spelling.
			return
		}
		if err := sign.Verify(again, trust); err != nil {
			t.Fatalf("after a round trip: %v\n%s", err, data)
		}
	})
}

func mustTrust(t *testing.T, keys ...string) *sign.Trust {
	t.Helper()
	tr, err := sign.NewTrust(keys...)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// What a --require-signed worker adds to every call: canonical encoding,
// one ed25519 verification, hashing a small script.
func BenchmarkVerify(b *testing.B) {
	dir := b.TempDir()
	script := filepath.Join(dir, "tool.py")
	if err := os.WriteFile(script, []byte(strings.Repeat("print('hello')\n", 200)), 0o644); err != nil {
		b.Fatal(err)
	}
	key, _ := sign.NewKey()
	pub, _ := key.PublicKey()
	trust, _ := sign.NewTrust(pub)
	m := manifest(b, `{"id":"t/bench","description":"A tool with a schema and a script","keywords":["a","b","c"],
		"parameters":{"type":"object","required":["path"],"properties":{"path":{"type":"string","description":"file"},"n":{"type":"integer","default":10}}},
		"executor":{"kind":"subprocess","argv":["python3","`+script+`","{path}"],"timeout":"5s"},"permissions":["fs.read"]}`)
	signed, err := sign.Sign(m, key)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := sign.Verify(signed, trust); err != nil {
			b.Fatal(err)
		}
	}
}
