package discover

import (
	"slices"
	"testing"
)

func TestTextAnalyzer(t *testing.T) {
	e := newFixture(t)
	tests := []struct {
		in   string
		want []string
	}{
		{"getTeamStats", []string{"get", "team", "stat"}},
		{"google_maps_scraper", []string{"googl", "map", "scraper"}},
		{"disk-usage", []string{"disk", "usag"}},
		{"system.disk_usage", []string{"system", "disk", "usag"}},
		{"maps/google_maps_scraper", []string{"map", "googl", "map", "scraper"}},
		{"HTTPServer", []string{"http", "server"}},
		{"JSONToCSV", []string{"json", "csv"}}, // "to" is a stop word
		{"APIs", []string{"api"}},
		{"IPv6", []string{"ipv6"}},
		{"base64Encode", []string{"base64", "encod"}},
		{"v2Users", []string{"v2", "user"}},
		{"The user's files", []string{"user", "file"}},
		{"Could you please run the scraper", []string{"run", "scraper"}},
		{"ÉtéCafé", []string{"été", "café"}},
		{"погода в Москве", []string{"погода", "в", "москве"}},
		{"***", nil},
		{"+-:", nil},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := terms(e.text, tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("terms(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestExactAnalyzerKeepsWords(t *testing.T) {
	e := newFixture(t)
	tests := []struct{ in, want string }{
		{"disk_usage", "disk usage"},
		{"system/disk_usage", "system disk usage"},
		{"Check the Disk Usage", "check the disk usage"},
		{"getForecast", "get forecast"},
		{"google maps scrapers", "google map scraper"},
	}
	for _, tt := range tests {
		if got := e.exactForm(tt.in); got != tt.want {
			t.Errorf("exactForm(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitIdentifier(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"getTeamStats", []string{"get", "Team", "Stats"}},
		{"snake_case_name", []string{"snake", "case", "name"}},
		{"a.b.c", []string{"a", "b", "c"}},
		{"HTTPServerError", []string{"HTTP", "Server", "Error"}},
		{"getIDsFor", []string{"get", "IDs", "For"}},
		{"IPv6Address", []string{"IPv6", "Address"}},
		{"mp3", []string{"mp3"}},
		{"__init__", []string{"init"}},
		{"don't", []string{"don't"}},
		{"東京", []string{"東京"}},
		{"", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, r := range splitIdentifier([]byte(tt.in)) {
			got = append(got, tt.in[r[0]:r[1]])
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("splitIdentifier(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
