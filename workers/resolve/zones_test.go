package resolve

import (
	"context"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // every zone loads, whatever the machine has installed
	"unicode"
	"unicode/utf8"

	"github.com/toolyard/toolyard/workers/internal/places"
)

var clock = manifest("system/current_time", "Current date and time", `{"type":"object","properties":{
	"timezone":{"type":"string","pattern":"^[A-Za-z0-9_+/-]+$","description":"IANA time zone, e.g. UTC or America/New_York"},
	"format":{"type":"string","default":"%H:%M"}}}`)

// TestZoneEveryPlace: every place of the generated table, written as a
// request would write it (capitalised words), fills the time zone with
// its zone, and every zone of the tables loads.
func TestZoneEveryPlace(t *testing.T) {
	n := 0
	for key, zone := range places.All() {
		n++
		if _, err := time.LoadLocation(zone); err != nil {
			t.Errorf("place %q: zone %q does not load: %v", key, zone, err)
		}
		words := strings.Fields(key)
		for i, w := range words {
			r, n := utf8.DecodeRuneInString(w)
			words[i] = string(unicode.ToUpper(r)) + w[n:]
		}
		text := "what time is it in " + strings.Join(words, " ")
		call, err := Resolve(context.Background(), routed(text), clock)
		if err != nil {
			t.Errorf("Resolve(%q): %v", text, err)
			continue
		}
		if got := call.Parameters["timezone"]; got != zone {
			t.Errorf("Resolve(%q) timezone = %v, want %s", text, got, zone)
		}
	}
	if n < 20000 {
		t.Fatalf("the tables have %d places; the time zone database and the world cities name over 20,000: regenerate with go generate ./workers/internal/places", n)
	}
	for low, zone := range places.Names() {
		if low != strings.ToLower(zone) {
			t.Errorf("zoneNames[%q] = %q: not its lower case", low, zone)
		}
		if _, err := time.LoadLocation(zone); err != nil {
			t.Errorf("zone %q does not load: %v", zone, err)
		}
	}
}

func TestZones(t *testing.T) {
	tests := []struct {
		text string
		want any // nil: no time zone
	}{
		{"what time is it in New York", "America/New_York"},
		{"what time is it in new york right now", "America/New_York"},
		{"current time in LOS ANGELES", "America/Los_Angeles"},
		{"time in Buenos Aires please", "America/Argentina/Buenos_Aires"},
		{"what's the time in São Paulo?", "America/Sao_Paulo"},
		{"the time in sao paulo", "America/Sao_Paulo"},
		{"tokyo time", "Asia/Tokyo"},
		{"Tokyo's time now", "Asia/Tokyo"},
		{"what time is it in Japan", "Asia/Tokyo"},
		{"the time in Dar es Salaam", "Africa/Dar_es_Salaam"},
		{"time in Port-au-Prince", "America/Port-au-Prince"},
		{"time at St. John's", "America/St_Johns"},
		{"time in europe/paris", "Europe/Paris"},
		{"the time in UTC", "UTC"},
		// Whole-hour offsets are Etc/GMT zones, whose sign is inverted.
		{"what time is it in UTC+2", "Etc/GMT-2"},
		{"current time at GMT-5", "Etc/GMT+5"},
		{"the time in utc+05:00", "Etc/GMT-5"},
		{"time in UTC+14", "Etc/GMT-14"},
		{"time in UTC+0", "UTC"},
		{"what time is it in UTC+5:30", nil}, // no Etc zone has minutes
		{"time in UTC+13:00", "Etc/GMT-13"},
		{"time in UTC-13", nil}, // no such zone
		// Abbreviations that name one zone, in capitals; those that name
		// several stay open.
		{"current time in PST", "America/Los_Angeles"},
		{"what time is it in JST", "Asia/Tokyo"},
		{"time in CEST", "CET"},
		{"the time in EST", "EST"}, // the database's own
		{"what time is it in CST", nil},
		{"what time is it in IST", nil},
		{"the time in pst", nil}, // not written as one
		{"what time is it", nil},
		{"time at the center of town", nil}, // "center" is a zone city, but not written as a place
		{"what time is it in Atlantis", nil},
		// The world's cities, not only the zones' own: a name several
		// places share means the zone of the far most populous one.
		{"what time is it in Chicago", "America/Chicago"},
		{"current time in Marseille", "Europe/Paris"},
		{"time in Kyoto", "Asia/Tokyo"},
		{"what time is it in Bengaluru", "Asia/Kolkata"},
		{"time in Melbourne", "Australia/Melbourne"},
		{"what time is it in Perth right now", "Australia/Perth"},
		{"what's the time in Córdoba, Argentina?", "America/Argentina/Cordoba"},
		// A province or country, after a comma or not, says which one.
		{"what time is it in Springfield, Missouri", "America/Chicago"},
		{"time in Springfield Massachusetts", "America/New_York"},
		{"what time is it in Perth, United Kingdom", "Europe/London"},
		{"time in Paris, London and Rome", "Europe/Paris"},
		// Countries: a zone that holds nearly all of its people.
		{"what time is it in Germany", "Europe/Berlin"},
		{"time in Kenya", "Africa/Nairobi"},
		// Names that stay open: several states, several zones.
		{"what time is it in Springfield", nil},
		{"what time is it in the United States", nil},
		{"time in Brazil", nil},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			call, err := Resolve(context.Background(), routed(tt.text), clock)
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.text, err)
			}
			if got := call.Parameters["timezone"]; got != tt.want {
				t.Fatalf("Resolve(%q) timezone = %v, want %v", tt.text, got, tt.want)
			}
		})
	}
}
