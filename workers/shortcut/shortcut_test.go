package shortcut

import (
	"testing"

	"github.com/toolyard/toolyard/workers/models/bundle"
)

func TestNormalize(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"case and punctuation", "  Archive the Old LOGS, please!  ", "archive the old logs please"},
		{"numbers", "shrink the banner to 640 by 480", "shrink the banner to <n> by <n>"},
		{"quoted", `post "deploy done" to the team channel`, "post <q> to the team channel"},
		{"backticks", "explain `git rebase -i` briefly", "explain <q> briefly"},
		{"paths and files", "count the lines in /var/log/syslog and notes.txt", "count the lines in <v> and <v>"},
		{"address", "mail ops@example.org the summary", "mail <v> the summary"},
		{"url", "fetch https://example.org/status now", "fetch <v> now"},
		{"apostrophes", "what's the disk doing?", "whats the disk doing"},
		{"sentence end is not a file", "check the disk.", "check the disk"},
		{"unclosed quote", `say "hello`, "say hello"},
		{"no words", " ?! ", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Normalize(c.in); got != c.want {
				t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestTableHint(t *testing.T) {
	tab := NewTable("v7", map[string]bundle.Shortcut{
		"archive the old logs": {Tool: "files/archive", Count: 6, Sessions: 3, Share: 1},
		"resize <v> to <n> px": {Tool: "images/resize", Count: 4, Sessions: 2, Share: 0.8},
	})
	cases := []struct{ name, text, tool string }{
		{"same phrasing", "Archive the old logs.", "files/archive"},
		{"other values", "resize cat.png to 1200 px", "images/resize"},
		{"other words", "archive the new logs", ""},
		{"empty", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := tab.Hint(c.text)
			switch {
			case c.tool == "" && h != nil:
				t.Fatalf("Hint(%q) = %+v, want none", c.text, h)
			case c.tool == "":
			case h == nil:
				t.Fatalf("Hint(%q) = none, want %s", c.text, c.tool)
			case h.ToolID != c.tool || h.Model != "v7" || h.ToolCall != `<tool_call name="`+c.tool+`">{…arguments…}</tool_call>`:
				t.Fatalf("Hint(%q) = %+v", c.text, h)
			}
		})
	}
	var none *Table
	if none.Hint("archive the old logs") != nil || none.Len() != 0 {
		t.Fatal("a nil table hints")
	}
}
