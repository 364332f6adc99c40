package embed

import (
	"slices"
	"testing"
)

func TestWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"getTeamStats", "get team stats"},
		{"google_maps_scraper", "google maps scraper"},
		{"system.disk_usage", "system disk usage"},
		{"disk-usage", "disk usage"},
		{"HTTPServer", "http server"},
		{"base64Encode", "base64 encode"},
		{"mp3Player", "mp3 player"},
		{"ResumeTool", "resume tool"},
		{"ABc", "a bc"},
		{"ÉtéChaud", "été chaud"},
		{"maps/scrape v2", "maps scrape v2"},
		{"", ""},
		{"--", ""},
	} {
		if got := words(tc.in); got != tc.want {
			t.Errorf("words(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNextRun(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"run the google-maps scraper, limit 50!", []string{"run", "the", "google", "maps", "scraper", "limit", "50"}},
		{"  ", nil},
		{"naïve café", []string{"naïve", "café"}},
		{"a_b", []string{"a", "b"}},
	} {
		var got []string
		for i := 0; ; {
			start, end := nextRun(tc.in, i)
			if start < 0 {
				break
			}
			got = append(got, tc.in[start:end])
			i = end
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("runs of %q = %q, want %q", tc.in, got, tc.want)
		}
	}
}
