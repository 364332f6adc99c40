package discover

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestPlaceSpans(t *testing.T) {
	tests := []struct {
		text string
		want []string // the places, as written
	}{
		{"what time is it in San Francisco", []string{"San Francisco"}},
		{"weather for Portland, Maine this weekend", []string{"Portland, Maine"}},
		{"flights between Paris, London and Rome", []string{"Paris", "London", "Rome"}},
		{"the time in São Paulo?", []string{"São Paulo"}},
		{"is it raining in Germany.", []string{"Germany"}},
		{"New York weather", []string{"New York"}},
		// A capitalised word opening the request or a sentence is an
		// ordinary word that a town is also called, unless a longer name
		// starts there.
		{"Split the file in two", nil},
		{"Nice work. Reading list please", nil},
		// Lower case is never read as a place here: "in reading order".
		{"sort the notes in reading order", nil},
		{"what time is it in springfield", nil},
		// A name the tables leave open is no place.
		{"the weather in Springfield", nil},
		{"email George the report", []string{"George"}},
		// A time zone's abbreviation in capitals is a value too, one that
		// names several zones as well; in lower case it is a word.
		{"current time in PST", []string{"PST"}},
		{"what time is it in CST, please", []string{"CST"}},
		{"UTC time now", []string{"UTC"}},
		{"the time in pst", nil},
		{"", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, sp := range placeSpans(tt.text) {
			got = append(got, tt.text[sp[0]:sp[1]])
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("placeSpans(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestMergeSpans(t *testing.T) {
	spans := [][]int{{5, 10}, {20, 30}}
	got, added := mergeSpans(spans, [][]int{{0, 3}, {8, 12}, {12, 18}, {35, 40}})
	want := [][]int{{0, 3}, {5, 10}, {12, 18}, {20, 30}, {35, 40}}
	if !added || !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("mergeSpans = %v, %v; want %v, true", got, added, want)
	}
	if _, added := mergeSpans(spans, [][]int{{6, 9}}); added {
		t.Error("a place inside a path was added")
	}
}

// Whatever the text, the places found lie inside it, in order, apart, and
// each starts with a capital.
// FuzzValueSpans: the places and the languages a request names are
// spans in order, inside the text, a place starting with a capital and a
// language being one of the names.
func FuzzValueSpans(f *testing.F) {
	for _, s := range []string{"time in San Francisco", "Portland, Maine, USA", "St. John's", "Ümeå,,", "in Paris.London", "São Paulo?",
		"say hi in Japanese", "from Portuguese to Dutch: olá", "into swahili.", "in ENGLISH please"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		end := 0
		for _, sp := range placeSpans(s) {
			if sp[0] < end || sp[1] <= sp[0] || sp[1] > len(s) {
				t.Fatalf("placeSpans(%q): span %v after %d", s, sp, end)
			}
			if r := []rune(s[sp[0]:sp[1]])[0]; !unicode.IsUpper(r) {
				t.Fatalf("placeSpans(%q): %q does not start with a capital", s, s[sp[0]:sp[1]])
			}
			end = sp[1]
		}
		end = 0
		for _, sp := range languageSpans(s) {
			if sp[0] < end || sp[1] <= sp[0] || sp[1] > len(s) {
				t.Fatalf("languageSpans(%q): span %v after %d", s, sp, end)
			}
			if !languageNames()[strings.ToLower(s[sp[0]:sp[1]])] {
				t.Fatalf("languageSpans(%q): %q is no language name", s, s[sp[0]:sp[1]])
			}
			end = sp[1]
		}
	})
}
