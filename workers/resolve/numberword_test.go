package resolve

import "testing"

func TestNumberWord(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"three", 3, true},
		{"Twelve", 12, true},
		{"forty", 40, true},
		{"forty-two", 42, true},
		{"hundred", 100, true},
		{"dozen", 12, true},
		{"one", 0, false}, // a pronoun as often as a number
		{"forty-", 0, false},
		{"two-forty", 0, false},
		{"threes", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := numberWord(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("numberWord(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
