package discover

import (
	"context"
	"math"
	"testing"
)

func TestIsWord(t *testing.T) {
	tests := []struct {
		term string
		want bool
	}{
		{"disk", true}, {"sha256", true}, {"mp4", true}, {"ipv6", true},
		{"50", false}, {"3pm", false}, {"2024", false}, {"", false},
	}
	for _, tt := range tests {
		if got := isWord(tt.term); got != tt.want {
			t.Errorf("isWord(%q) = %v, want %v", tt.term, got, tt.want)
		}
	}
}

// A word with digits describes the tool: a request naming only such a word
// and a path is judged by that word, not by the path's parts.
func TestDescribingKeepsWordsWithDigits(t *testing.T) {
	e := newFixture(t)
	q := e.parse("md5 of /var/lib/data.bin at 3pm")
	if len(q.describing) != 1 || q.describing[0] != "md5" {
		t.Errorf("describing %q, want [md5]", q.describing)
	}
}

func TestTermValue(t *testing.T) {
	sig := map[string]float64{FeatureCoverage: 0.7, FeatureMargin: 0.2}
	tests := []struct {
		name string
		want float64
	}{
		{FeatureCoverage, 0.7},
		{FeatureCoverage + ">0.5", 0.2},
		{FeatureMargin + ">0.5", 0},
		{FeatureMargin + " > 0.1", 0.1},
		{FeatureCosine, 0}, // absent
	}
	for _, tt := range tests {
		if got := TermValue(tt.name, sig); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("TermValue(%q) = %v, want %v", tt.name, got, tt.want)
		}
		if err := CheckTerm(tt.name); err != nil {
			t.Errorf("CheckTerm(%q): %v", tt.name, err)
		}
	}
	for _, bad := range []string{"nope", "coverage>", "coverage>x", "coverage>NaN", ">0.5"} {
		if err := CheckTerm(bad); err == nil {
			t.Errorf("CheckTerm(%q): want an error", bad)
		}
		if _, err := ParseCalibration([]byte(`{"features":["` + bad + `"],"weights":[1]}`)); err == nil {
			t.Errorf("a calibration with %q: want an error", bad)
		}
	}
}

// phrase_match is the share of the describing words inside a run equal to
// one of the tool's names or keywords.
func TestPhraseMatch(t *testing.T) {
	e := newHybrid(t, &fakeEmbedder{})
	ctx := context.Background()
	tests := []struct {
		query, tool string
		want        float64
	}{
		{"leads", "maps/google_maps_scraper", 1},                         // a keyword, alone
		{"find leads for dentists", "maps/google_maps_scraper", 1.0 / 3}, // leads of find, leads, dentist
		{"send email", "mail/send_email", 1},                             // the name's words
		{"send the email", "mail/send_email", 0},                         // not a run of the name
		{"translate some text", "translate/translate_text", 0},           // the name's words, not in a run
	}
	for _, tt := range tests {
		cs, err := e.Explain(ctx, tt.query, 10)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, c := range cs {
			if c.ToolID == tt.tool {
				found = true
				if got := c.Signals[FeaturePhraseMatch]; math.Abs(got-tt.want) > 1e-9 {
					t.Errorf("%q: %s phrase_match %v, want %v", tt.query, tt.tool, got, tt.want)
				}
			}
		}
		if !found {
			t.Errorf("%q: %s not among %v", tt.query, tt.tool, cs)
		}
	}
}

// Calibration.Confidence, for offline scoring, is what a search gives the
// top candidate.
func TestCalibrationConfidenceMatchesSearch(t *testing.T) {
	e := newHybrid(t, &fakeEmbedder{})
	for _, q := range []string{"weather forecast for Oslo", "open an issue about the crash", "write me a poem"} {
		cs, err := e.Explain(context.Background(), q, 5)
		if err != nil || len(cs) == 0 {
			t.Fatalf("%q: %v %v", q, cs, err)
		}
		want := cs[0].Confidence
		if got := DefaultCalibration().Confidence(cs[0].Signals); math.Abs(got-want) > 1e-9 {
			t.Errorf("%q: offline confidence %v, search %v", q, got, want)
		}
	}
}

func TestContainsRun(t *testing.T) {
	tests := []struct {
		text, phrase string
		want         bool
	}{
		{" show the load average now ", "load average", true},
		{" show the load average now ", "load", true},
		{" show the overload average ", "load average", false},
		{" show the load averages ", "load average", false},
		{" uptime ", "uptime", true},
		{" uptime ", "", false},
		{" a b a b c ", "b c", true},
	}
	for _, tt := range tests {
		if got := containsRun(tt.text, tt.phrase); got != tt.want {
			t.Errorf("containsRun(%q, %q) = %v, want %v", tt.text, tt.phrase, got, tt.want)
		}
	}
}
