package places

import (
	"strings"
	"testing"
)

func TestLongest(t *testing.T) {
	tests := []struct {
		words []string
		n     int
		zone  string
	}{
		{strings.Fields("San Francisco tomorrow"), 2, "America/Los_Angeles"},
		{strings.Fields("Portland, Maine, please"), 2, "America/New_York"},
		{strings.Fields("Paris, London and Rome"), 1, "Europe/Paris"},
		{strings.Fields("Paris. London"), 1, "Europe/Paris"},
		{strings.Fields("St. John's time"), 2, "America/St_Johns"},
		{strings.Fields("Tokyo's time"), 1, "Asia/Tokyo"},
		{strings.Fields("São Paulo?"), 2, "America/Sao_Paulo"},
		{strings.Fields("Springfield"), 0, ""},
		{strings.Fields("Atlantis"), 0, ""},
		{nil, 0, ""},
	}
	for _, tt := range tests {
		if n, zone := Longest(tt.words); n != tt.n || zone != tt.zone {
			t.Errorf("Longest(%q) = %d, %q; want %d, %q", tt.words, n, zone, tt.n, tt.zone)
		}
	}
}

// The tables are built on first use and every key is as Key writes it.
func TestTableKeys(t *testing.T) {
	n := 0
	for key := range All() {
		n++
		for _, w := range strings.Fields(key) {
			if Key(w) != w {
				t.Fatalf("key %q: word %q reads as %q", key, w, Key(w))
			}
		}
	}
	if n < 20000 {
		t.Fatalf("%d places; regenerate with go generate ./workers/internal/places", n)
	}
}

func TestAbbreviation(t *testing.T) {
	for word, want := range map[string]bool{
		"PST": true, "CEST": true, "JST": true, // one zone each
		"CST": true, "IST": true, // several zones, a time zone all the same
		"EST": true, "UTC": true, "CET": true, // the database's own names
		"pst": false, "Pst": false, "ICT": false, "CAT": false, // words, or read as such
		"US": false, "Europe/Paris": false, "": false,
	} {
		if got := Abbreviation(word); got != want {
			t.Errorf("Abbreviation(%q) = %v, want %v", word, got, want)
		}
	}
	for abbr, want := range map[string]string{"PST": "America/Los_Angeles", "CEST": "CET", "EST": "EST"} {
		if got, ok := ZoneName(abbr); !ok || got != want {
			t.Errorf("ZoneName(%q) = %q, %v; want %q", abbr, got, ok, want)
		}
	}
	for abbr, zone := range abbreviations {
		if _, ok := zoneNames()[strings.ToLower(zone)]; !ok {
			t.Errorf("abbreviation %s: %s is no zone of the database", abbr, zone)
		}
	}
	for _, open := range []string{"CST", "IST", "AST", "pst"} {
		if z, ok := ZoneName(open); ok {
			t.Errorf("ZoneName(%q) = %q, want none: it names several zones, or is no abbreviation written so", open, z)
		}
	}
}
