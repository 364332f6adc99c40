package resolve

import (
	"context"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // every zone loads, whatever the machine has installed
)

var clock = manifest("system/current_time", "Current date and time", `{"type":"object","properties":{
	"timezone":{"type":"string","pattern":"^[A-Za-z0-9_+/-]+$","description":"IANA time zone, e.g. UTC or America/New_York"},
	"format":{"type":"string","default":"%H:%M"}}}`)

// TestZoneEveryPlace: every place of the generated table, written as a
// request would write it (capitalised words), fills the time zone with
// its zone, and every zone of the tables loads.
func TestZoneEveryPlace(t *testing.T) {
	if len(zonePlaces) < 400 {
		t.Fatalf("zonePlaces has %d places; the time zone database names over 400: regenerate with go generate ./workers/resolve", len(zonePlaces))
	}
	for key, zone := range zonePlaces {
		if _, err := time.LoadLocation(zone); err != nil {
			t.Errorf("place %q: zone %q does not load: %v", key, zone, err)
		}
		words := strings.Fields(key)
		for i, w := range words {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
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
	for low, zone := range zoneNames {
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
		{"what time is it", nil},
		{"time at the center of town", nil}, // "center" is a zone city, but not written as a place
		{"what time is it in Atlantis", nil},
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
