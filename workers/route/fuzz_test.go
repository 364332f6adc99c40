package route

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolyard/toolyard/schemas"
)

// Any intent text and confidence yields a valid tier, a one-line message
// and matches that encode; command texts always go to a meta-tool.
func FuzzRoute(f *testing.F) {
	for _, s := range []string{"activate files/checksum", "find_tools resize images", "find tools for x", "activate", "ACTIVATE  a/b",
		"how long has the system been up", "", "\x00\xff", "activate a b", "find_tools\n\nq"} {
		f.Add(s, 0.5)
	}
	f.Fuzz(func(t *testing.T, text string, conf float64) {
		c := schemas.Candidates{Intent: schemas.Intent{Text: text}, Candidates: []schemas.Candidate{{ToolID: "a/b", Confidence: conf}}}
		d := Route(c, DefaultThresholds(), nil)
		switch d.Tier {
		case schemas.TierActivated, schemas.TierMultiple, schemas.TierWeak, schemas.TierNotFound:
		default:
			t.Fatalf("tier %q", d.Tier)
		}
		if d.Message == "" || strings.Contains(d.Message, "\n") {
			t.Fatalf("message %q", d.Message)
		}
		if _, err := json.Marshal(d.Matches); err != nil {
			t.Fatal(err)
		}
		if _, ok := command(c.Intent); ok && (d.Tier != schemas.TierActivated || !strings.HasPrefix(d.Matches[0].ToolID, "toolyard/")) {
			t.Fatalf("command %q routed to %+v", text, d.Matches)
		}
		if utf8.ValidString(text) && strings.HasPrefix(strings.ToLower(strings.TrimSpace(text)), "activate ") && len(strings.Fields(text)) == 2 {
			if d.Matches[0].ToolID != ActivateID {
				t.Fatalf("%q is an activate command", text)
			}
		}
	})
}
