package discover

import (
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// The numbered df that tool coverage reads must equal df through every Put
// and Remove, or tool coverage would weigh words by a stale idf.
func TestTermNumbersFollowUpdates(t *testing.T) {
	e := newFixture(t)
	check := func(step string) {
		t.Helper()
		for term, id := range e.stats.termIDs {
			if got, want := e.stats.idfOf(id), e.stats.idf(term); got != want {
				t.Errorf("%s: idf of %q by number %.6f, by string %.6f", step, term, got, want)
			}
		}
		for id, en := range e.tools {
			if len(en.wordTermIDs) != len(en.wordTerms) {
				t.Fatalf("%s: %s has %d term numbers for %d words", step, id, len(en.wordTermIDs), len(en.wordTerms))
			}
			for k, n := range en.wordTermIDs {
				if (n < 0) != (en.wordTerms[k] == "") || (n >= 0 && e.stats.termIDs[en.wordTerms[k]] != n) {
					t.Errorf("%s: %s word %q numbered %d", step, id, en.words[k], n)
				}
			}
		}
	}
	check("new")
	steps := []struct {
		name string
		do   func() error
	}{
		{"put new", func() error {
			return e.Put(schemas.Manifest{ID: "x/disk_report", Name: "disk_report", Description: "Report disk usage of every drive."})
		}},
		{"replace", func() error {
			return e.Put(schemas.Manifest{ID: "x/disk_report", Name: "disk_report", Description: "Weekly e-mail digest."})
		}},
		{"remove", func() error { return e.Remove("x/disk_report") }},
		{"remove fixture", func() error { return e.Remove("system/disk_usage") }},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		check(s.name)
	}
}
