package ops_test

import (
	"os"
	"path/filepath"
	"testing"
)

// Every toolyard_ series the operator documentation names is one a stage
// process exports: a renamed metric must not leave OPERATING.md (or a
// docs/ page) telling operators to query a series that never appears.
func TestDocumentedMetricsExported(t *testing.T) {
	known := registeredMetrics(t)
	pages, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "OPERATING.md", "README.md")
	named := 0
	for _, page := range pages {
		raw, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range seriesIn(string(raw), known) {
			named++
			if !known[n] {
				t.Errorf("%s names %s, which the code does not export", page, n)
			}
		}
	}
	if named == 0 {
		t.Fatal("the documentation names no toolyard_ series: is the pattern still right?")
	}
}
