package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestEvalEmbedderRefusesBadRequests(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--variant", "cc=9"}, `--variant "cc=9": unknown (known: default,`},
		{[]string{"--bench", filepath.Join(t.TempDir(), "none")}, "benchmark data is needed"},
		{[]string{"--vectors", filepath.Join(t.TempDir(), "none.bin")}, "--vectors"},
	}
	for _, tt := range tests {
		_, stderr, err := runRoot(append([]string{"eval", "embedder"}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want one saying %q\n%s", tt.args, err, tt.want, stderr)
		}
	}
}
