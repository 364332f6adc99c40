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
