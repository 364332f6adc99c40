package discover

import (
	"slices"
	"strings"
	"testing"
)

func TestRequestParts(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"how much room is left on my disk", nil},
		{"how much room is left on my disk.", nil},
		{"Find the weather. Thanks.", nil},
		{"Find version 3.5 of the docs, e.g. the index", nil},
		{"I need the energy data for 2025. Additionally, retrieve solar radiation for New York! Finally, calculate water needs?",
			[]string{"I need the energy data for 2025.", "Additionally, retrieve solar radiation for New York!", "Finally, calculate water needs?"}},
		{"list the files; then count their lines", []string{"list the files;", "then count their lines"}},
		{"first line here\nsecond line there", []string{"first line here", "second line there"}},
		{"", nil},
		{"... ;;; !!", nil},
	}
	for _, tt := range tests {
		if got := requestParts(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("requestParts(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func FuzzRequestParts(f *testing.F) {
	f.Add("a b. c d")
	f.Add("x\ny z; w")
	f.Fuzz(func(t *testing.T, text string) {
		parts := requestParts(text)
		if len(parts) == 1 {
			t.Fatalf("one part %q: want nil or several", parts)
		}
		for _, p := range parts {
			if !strings.Contains(text, p) {
				t.Fatalf("part %q is not in %q", p, text)
			}
		}
	})
}
