package main

import (
	"bytes"
	"os"
	"testing"
)

// docs/cli.md is generated from the command definitions; a change to a
// command, a flag or a help text must come with the regenerated page.
func TestCLIReferenceIsCurrent(t *testing.T) {
	// Flag defaults that read the environment print what the page shows
	// when it is unset.
	t.Setenv("TOOLYARD_BENCH", "")
	var b bytes.Buffer
	root := newRoot()
	root.SetOut(&b)
	root.SetArgs([]string{"docs", "cli"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, b.Bytes()) {
		t.Fatal("docs/cli.md is stale: run `go generate ./cmd/toolyard` and commit the page")
	}
}
