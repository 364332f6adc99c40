package discover

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestLanguageSpans(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"what is 'gracias' in English", []string{"English"}},
		{"say good night in japanese please", []string{"japanese"}},
		{"translate the memo into Swahili and Hindi.", []string{"Swahili"}},
		{"from Portuguese to Dutch: bom dia", []string{"Portuguese", "Dutch"}},
		// An adjective of the next word, or no language's place.
		{"best Chinese restaurants in Toronto", nil},
		{"recipes for French toast", nil},
		{"a trip to Italian lakes", nil},
		{"German is hard", nil},
		// Not a language name of one word: "Norwegian Bokmål" is two.
		{"in Klingon please", nil},
		{"", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, sp := range languageSpans(tt.text) {
			got = append(got, tt.text[sp[0]:sp[1]])
		}
		if len(got) != len(tt.want) {
			t.Errorf("languageSpans(%q) = %q, want %q", tt.text, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("languageSpans(%q) = %q, want %q", tt.text, got, tt.want)
			}
		}
	}
}

// The names come from the CLDR table, not a list of favourites.
func TestLanguageNames(t *testing.T) {
	for _, n := range []string{"english", "japanese", "swahili", "filipino", "yoruba", "icelandic"} {
		if !languageNames()[n] {
			t.Errorf("%s is not a language name", n)
		}
	}
	for _, n := range []string{"ewe", "ido", "norwegian bokmål", "klingon"} {
		if languageNames()[n] {
			t.Errorf("%s is a language name", n)
		}
	}
}

// A language named where a language goes is a value of a kind: the tool
// that takes a language ranks first though no other word of the request
// is in its text; the name stays a word of the request too.
func TestLanguageIsAValue(t *testing.T) {
	tools := describedTools(
		[3]string{"text/translate", "Translate", "Translate text into another language."},
		[3]string{"sys/kernel", "Kernel info", "Show the kernel name, release and version."},
		[3]string{"mail/send", "Send mail", "Send an email message to recipients."},
	)
	tools[0].Parameters = json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"target_language":{"type":"string"}}}`)
	e := hybridEngine(t, tools)
	cs, err := e.Search(context.Background(), "what is 'gracias' in English", 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) == 0 || cs[0].ToolID != "text/translate" {
		t.Errorf("ranked %v, want text/translate first", ids(cs))
	}
	e.mu.RLock()
	q := e.parse("say good night in Japanese")
	e.mu.RUnlock()
	if q.kinds&kindLanguage == 0 || !slices.ContainsFunc(q.describing, func(t string) bool { return strings.HasPrefix(t, "japanes") }) {
		t.Errorf("kinds %b, describing %q: want a language value and its word", q.kinds, q.describing)
	}
}

func BenchmarkLanguageSpans(b *testing.B) {
	texts := []string{
		"how much disk space is left on the root filesystem of the build server",
		"translate the release notes into Japanese please",
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			languageSpans(t)
		}
	}
}
