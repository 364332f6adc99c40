package languages

import "testing"

func TestCodes(t *testing.T) {
	for name, want := range map[string]string{
		"english": "en", "japanese": "ja", "portuguese": "pt", "hebrew": "he", "swahili": "sw",
		"farsi": "fa", "mandarin": "zh", "tagalog": "tl", "norwegian bokmål": "nb",
	} {
		if got := Codes()[name]; got != want {
			t.Errorf("Codes()[%q] = %q, want %q", name, got, want)
		}
	}
	if code, ok := Codes()["klingon"]; ok {
		t.Errorf("klingon has code %q", code)
	}
}
