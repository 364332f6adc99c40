package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/workers/registry/sign"
)

// Signing rewrites a file in its own shape, and every manifest in it then
// verifies.
func TestSignKeepsTheFileShape(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "k.nk")
	run := func(args ...string) (string, error) {
		root := newRoot()
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&bytes.Buffer{})
		root.SetArgs(args)
		err := root.Execute()
		return out.String(), err
	}
	pub, err := run("tools", "keygen", "--out", key)
	if err != nil {
		t.Fatal(err)
	}
	pub = strings.TrimSpace(pub)
	if _, err := run("tools", "keygen", "--out", key); err == nil {
		t.Fatal("keygen overwrote an existing seed")
	}
	if fi, _ := os.Stat(key); fi.Mode().Perm() != 0o600 {
		t.Fatalf("seed mode %v", fi.Mode().Perm())
	}
	a := `{"id":"t/a","description":"A","executor":{"kind":"subprocess","argv":["echo","a"]}}`
	b := `{"id":"t/b","description":"B"}`
	tests := []struct {
		name, content string
		check         func(string) bool
	}{
		{"lines", a + "\n\n" + b + "\n", func(s string) bool { return strings.Count(s, "\n") == 2 && strings.HasPrefix(s, `{"id":"t/a"`) }},
		{"array", "[\n" + a + ",\n" + b + "]", func(s string) bool { return strings.HasPrefix(s, "[\n{") && strings.HasSuffix(s, "}\n]\n") }},
		{"object", "{\n  \"id\": \"t/a\",\n  \"description\": \"A\"\n}\n", func(s string) bool { return strings.HasPrefix(s, "{\n  \"id\"") }},
	}
	trust, _ := sign.NewTrust(pub)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, tc.name+".json")
			if err := os.WriteFile(file, []byte(tc.content), 0o640); err != nil {
				t.Fatal(err)
			}
			if _, err := run("tools", "sign", "--key", key, file); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(file)
			if !tc.check(string(data)) {
				t.Fatalf("signed file lost its shape:\n%s", data)
			}
			if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o640 {
				t.Fatalf("mode %v", fi.Mode().Perm())
			}
			mf, err := readManifestFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range mf.manifests {
				if err := sign.Verify(m, trust); err != nil {
					t.Fatal(err)
				}
			}
			out, err := run("tools", "verify", "--trusted-keys", pub, file)
			if err != nil || strings.Count(out, "\tok\t") != len(mf.manifests) {
				t.Fatalf("verify: %v\n%s", err, out)
			}
		})
	}
	bad := filepath.Join(dir, "bad.jsonl")
	_ = os.WriteFile(bad, []byte(`{"id":"t/x"}`+"\n"), 0o644)
	if _, err := run("tools", "sign", "--key", key, bad); err == nil || !strings.Contains(err.Error(), "manifest 1") {
		t.Fatalf("an invalid manifest was signed: %v", err)
	}
	if data, _ := os.ReadFile(bad); string(data) != `{"id":"t/x"}`+"\n" {
		t.Fatal("a refused file was changed")
	}
	other, _ := sign.NewKey()
	otherPub, _ := other.PublicKey()
	out, err := run("tools", "verify", "--trusted-keys", otherPub, filepath.Join(dir, "lines.json"))
	if err == nil || !strings.Contains(out, "refused") {
		t.Fatalf("verify with another key: %v\n%s", err, out)
	}
}
