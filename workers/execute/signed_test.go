package execute

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/nkeys"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry/sign"
)

// A worker that requires signatures runs a validly signed tool and refuses
// an unsigned, tampered or foreign one, saying why; the refused tool never
// runs.
func TestRequireSigned(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "append.sh")
	logFile := filepath.Join(dir, "ran.log")
	writeFile(t, script, "#!/bin/sh\necho \"$1\" >> "+logFile+"\necho ok\n")
	key, _ := sign.NewKey()
	pub, _ := key.PublicKey()
	foreign, _ := sign.NewKey()
	trust, err := sign.NewTrust(pub)
	if err != nil {
		t.Fatal(err)
	}
	base := tool("t/append", `{"type":"object","required":["label"],"properties":{"label":{"type":"string"}}}`, "/bin/sh", script, "{label}")
	signed := mustSign(t, base, key)
	tampered := signed
	tampered.Executor = &schemas.Executor{Kind: schemas.ExecSubprocess, Argv: []string{"/bin/sh", "-c", "echo pwned >> " + logFile}}
	other := base
	other.ID = "t/foreign"
	other = mustSign(t, other, foreign)
	unsigned := base
	unsigned.ID = "t/unsigned"
	alias := mustSign(t, schemas.Manifest{ID: "t/alias", Description: "signed alias of an unsigned tool",
		Executor: &schemas.Executor{Kind: schemas.ExecTool, Tool: "t/unsigned"}}, key)

	run1 := func(t *testing.T, m schemas.Manifest, opts ...Option) error {
		t.Helper()
		e := newExecutor(t, []schemas.Manifest{m, unsigned}, opts...)
		_, err := run(t, e, call(m.ID, map[string]any{"label": m.ID}))
		return err
	}
	require := WithSignatures(trust, true)
	tests := []struct {
		name string
		m    schemas.Manifest
		opts []Option
		code string
		msg  string
	}{
		{"valid signature runs", signed, []Option{require}, "", ""},
		{"builtin needs no signature", BuiltinManifests()[0], []Option{require}, "", ""},
		{"unsigned refused", unsigned, []Option{require}, CodeUnsignedTool, "tool t/unsigned: tool is not signed"},
		{"tampered manifest refused", tampered, []Option{require}, CodeBadSignature, "the manifest changed since it was signed"},
		{"untrusted key refused", other, []Option{require}, CodeUntrustedKey, "not in this worker's --trusted-keys"},
		{"chain through an unsigned tool refused", alias, []Option{require}, CodeUnsignedTool, "t/unsigned"},
		{"without require, unsigned runs", unsigned, []Option{WithSignatures(trust, false)}, "", ""},
		{"without require, tampered is still refused", tampered, []Option{WithSignatures(trust, false)}, CodeBadSignature, "changed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_ = os.Remove(logFile)
			err := run1(t, tc.m, tc.opts...)
			if tc.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if errorCode(err) != tc.code || IsTransient(err) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v (code %s), want %s containing %q", err, errorCode(err), tc.code, tc.msg)
			}
			if _, err := os.Stat(logFile); err == nil {
				t.Fatal("a refused tool ran")
			}
		})
	}

	t.Run("tampered script refused", func(t *testing.T) {
		_ = os.Remove(logFile)
		writeFile(t, script, "#!/bin/sh\necho pwned >> "+logFile+"\n")
		err := run1(t, signed, require)
		if errorCode(err) != CodeBadSignature || !strings.Contains(err.Error(), "script "+script+" changed since it was signed") {
			t.Fatalf("err = %v", err)
		}
		if !errors.Is(err, sign.ErrBadSignature) || !errors.Is(err, ErrSignature) {
			t.Fatal("error classes lost")
		}
		if _, err := os.Stat(logFile); err == nil {
			t.Fatal("the tampered script ran")
		}
	})
}

func mustSign(t *testing.T, m schemas.Manifest, kp nkeys.KeyPair) schemas.Manifest {
	t.Helper()
	s, err := sign.Sign(m, kp)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// A tool that hands its script down a delegation chain as a fixed
// parameter (a kiwi python tool → its runtime tool → subprocess) is
// covered by its signature: a changed script is refused.
func TestRequireSignedCoversScriptsHandedDown(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "hello.sh")
	writeFile(t, script, "echo hello from the script\n")
	key, _ := sign.NewKey()
	pub, _ := key.PublicKey()
	trust, _ := sign.NewTrust(pub)
	runtime := mustSign(t, tool("rt/sh", `{"type":"object","required":["script_path"],"properties":{"script_path":{"type":"string"}}}`,
		"/bin/sh", "{script_path}"), key)
	pyTool := mustSign(t, schemas.Manifest{ID: "kiwi/hello", Description: "say hello",
		Parameters: []byte(`{"type":"object","properties":{"script_path":{"type":"string","const":"` + script + `","default":"` + script + `"}}}`),
		Executor:   &schemas.Executor{Kind: schemas.ExecTool, Tool: "rt/sh"}}, key)
	if len(pyTool.Signature.Files) != 1 {
		t.Fatalf("signed files %v, want the script", pyTool.Signature.Files)
	}
	e := newExecutor(t, []schemas.Manifest{runtime, pyTool}, WithSignatures(trust, true))
	out, err := run(t, e, call("kiwi/hello", nil))
	if err != nil || out.Content != "hello from the script\n" {
		t.Fatalf("out %v err %v", out.Content, err)
	}
	writeFile(t, script, "echo changed\n")
	_, err = run(t, e, call("kiwi/hello", nil))
	if errorCode(err) != CodeBadSignature || !strings.Contains(err.Error(), "tool kiwi/hello: bad signature: script "+script+" changed") {
		t.Fatalf("err = %v", err)
	}
}
