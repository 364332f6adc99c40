package discover

import (
	"strings"
	"testing"
)

// Every text the values expression matches in has a value mark: skipping
// the expression for texts without one loses nothing.
func TestValuesNeedAMark(t *testing.T) {
	for _, text := range []string{
		`say "hi"`, `say “hi”`, `tag 'urgent' now`, `mail ann@example.org`, `open https://example.org/x`,
		`read /etc/hosts`, `list ./src`, `list ~/notes`, `open C:\temp\x`, `limit=5`, `q='a b'`,
	} {
		if !values.MatchString(text) {
			t.Fatalf("values does not match %q: the test's examples are stale", text)
		}
		if !strings.ContainsAny(text, valueMarks) {
			t.Errorf("%q has a value but no mark in %q", text, valueMarks)
		}
	}
	for _, text := range []string{"weather in Paris tomorrow", "convert 100 dollars to euros", "sha256 of the file"} {
		if values.MatchString(text) {
			t.Errorf("values matches %q, which has no mark", text)
		}
	}
}

func FuzzValuesNeedAMark(f *testing.F) {
	for _, s := range []string{`say "hi"`, "a@b", "x=1", "plain words", "/tmp", `C:\x`, "http://h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if values.MatchString(s) && !strings.ContainsAny(s, valueMarks) {
			t.Fatalf("values matches %q, which has no mark", s)
		}
	})
}
