package kiwi_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolyard/toolyard/workers/kiwi"
)

// BenchmarkParse: one tool file (signature, docstring with a line-form
// Config Schema, metadata, code), bytes per second.
func BenchmarkParse(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("testdata", "project", kiwi.ToolsDir, "search", "web_search.py"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := kiwi.Parse("search/web_search", "/t.py", src); err != nil {
			b.Fatal(err)
		}
	}
}
