package kiwi_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/workers/kiwi"
)

// FuzzParse: any bytes are refused with an error or parsed into a tool
// whose manifest the registry accepts; never a panic. A parsed file still
// parses, with a valid signature, after Sign.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "project", kiwi.ToolsDir, "*", "*.py"))
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"\"\"\"Doc.\n\nConfig Schema:\n    a (list[dict[str, Optional[int]]] | None, default [1]): x\n\"\"\"\n" + meta,
		"'''Doc.'''\n" + meta + "x = {'a': (1, 2.5e3, -0x1F, 0o7, 0b1, 1_000), 'b': [None, True]}\n",
		"\"\"\"Doc.\n\nConfig Schema:\n    {\"a\": {\"type\": \"string\", \"required\": true}}\n\"\"\"\n" + meta,
		"# kiwi-mcp:validated:2026-01-30T12:00:00Z:" + strings.Repeat("0", 64) + "\n\"\"\"d\"\"\"\n" + meta,
		"\"\"\"\\N{BULLET} \\x4\"\"\"\n" + meta, "((((((", "'\\", "\"\"\"", "x = [\n", "\\\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var tool kiwi.Tool
		var err error
		done := make(chan struct{})
		go func() { tool, err = kiwi.Parse("fuzz/t", "/tools/t.py", src); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("Parse did not return within 5s on %q", src)
		}
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if _, err := tool.Manifest("ns"); err != nil {
			t.Fatalf("parsed, but the manifest is refused: %v\nsource: %q", err, src)
		}
		again, err := kiwi.Parse("fuzz/t", "/tools/t.py", kiwi.Sign(src, time.Unix(0, 0)))
		if err != nil {
			t.Fatalf("signed copy refused: %v\nsource: %q", err, src)
		}
		if again.Signature == nil || again.Version != tool.Version || again.Description != tool.Description {
			t.Fatalf("signed copy differs: %+v vs %+v", again, tool)
		}
	})
}
