package predict

import (
	"strings"
	"testing"
)

func TestTokensCoverTheTextAndCutLongWords(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"Sure. [TOOL: resize it]", []string{"Sure", ".", " [", "TOOL", ":", " resize", " it", "]"}},
		{"internationalisation now", []string{"inter", "natio", "nalis", "ation", " now"}},
		{"  two  spaces", []string{"  two", "  spaces"}},
		{"", nil},
	}
	for _, c := range cases {
		got := Tokens(c.text)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q: got %q, want %q", c.text, got, c.want)
		}
		if strings.Join(got, "") != c.text {
			t.Errorf("%q: tokens do not add up to the text: %q", c.text, got)
		}
	}
}
