package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/pipeline/auth"
)

// A --creds file that is missing or no credentials file is named with what
// is wrong with it; the guess that 'toolyard up' is not running is kept for
// a server that does not answer (it was added to every one of them).
func TestCredsFileErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	keys, err := auth.LoadOrCreateKeys(dir)
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.creds")
	c, err := keys.Mint(auth.User{Name: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.WriteFile(good); err != nil {
		t.Fatal(err)
	}
	file, err := c.File()
	if err != nil {
		t.Fatal(err)
	}
	garbage, jwtOnly := filepath.Join(dir, "garbage.creds"), filepath.Join(dir, "jwt-only.creds")
	if err := os.WriteFile(garbage, []byte("garbage\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	jwtPart, _, _ := strings.Cut(string(file), "************************* IMPORTANT")
	if err := os.WriteFile(jwtOnly, []byte(jwtPart), 0o600); err != nil {
		t.Fatal(err)
	}
	const upHint = "is 'toolyard up' running?"
	tests := []struct {
		name, creds, want string
	}{
		{"garbage", garbage, "credentials " + garbage + ": not a credentials file: expected a user JWT and its seed, as 'toolyard creds agent'"},
		{"no seed", jwtOnly, "credentials " + jwtOnly + ": not a credentials file: expected a user JWT and its seed"},
		{"missing", filepath.Join(dir, "nope.creds"), "credentials " + filepath.Join(dir, "nope.creds") + " do not exist"},
		{"good, no server", good, upHint},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newRoot()
			root.SetOut(io.Discard)
			root.SetErr(io.Discard)
			root.SetArgs([]string{"tools", "list", "--nats", "nats://127.0.0.1:1", "--creds", tt.creds})
			err := root.Execute()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
			if tt.want != upHint && strings.Contains(err.Error(), upHint) {
				t.Errorf("error %v blames the server for the file", err)
			}
		})
	}
}
