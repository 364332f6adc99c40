// Package shortcut gives learned shortcuts (the seed design's "directive
// caching"): when the history a model was trained on shows an intent
// phrasing resolving to the same tool again and again, across sessions, the
// result of an intent with that phrasing carries a hint with the direct
// <tool_call name="…"> form, so the agent can skip discovery next time.
//
// Phrasings are compared after Normalize: the words, lower-cased, with the
// values an intent states (numbers, quoted strings, paths, addresses)
// replaced by placeholders, so "resize a.png to 200 px" and "Resize b.png to
// 640 px." are one phrasing. training/learn decides which phrasings become
// shortcuts (its ShortcutRule) and stores them in the model bundle
// (bundle.Templates.Shortcuts); this package only reads them.
package shortcut

import (
	"fmt"
	"html"
	"strings"
	"unicode"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/models/bundle"
)

// Placeholders a normalised phrasing holds where the intent stated a value.
const (
	Number = "<n>" // a token with a digit: 200, v2, 2026-11-26
	Quoted = "<q>" // a "double-quoted" or `backticked` string
	Value  = "<v>" // a path, file name, URL or address
)

// Normalize is the phrasing of an intent text: its words lower-cased and
// stripped of punctuation, values replaced by placeholders, one space
// between. Text with no word gives "".
func Normalize(text string) string {
	var out []string
	rs := []rune(text)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
			continue
		case r == '"' || r == '`' || r == '“':
			end := closing(r)
			j := i + 1
			for j < len(rs) && rs[j] != end {
				j++
			}
			if j < len(rs) {
				out = append(out, Quoted)
				i = j + 1
				continue
			}
			i++ // an unclosed quote is punctuation
			continue
		}
		j := i
		for j < len(rs) && !unicode.IsSpace(rs[j]) {
			j++
		}
		if w := word(string(rs[i:j])); w != "" {
			out = append(out, w)
		}
		i = j
	}
	return strings.Join(out, " ")
}

func closing(open rune) rune {
	if open == '“' {
		return '”'
	}
	return open
}

// word is one whitespace-separated token as a phrasing holds it.
func word(tok string) string {
	t := strings.TrimFunc(tok, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '/' && r != '~' })
	if t == "" {
		return ""
	}
	inner := strings.TrimFunc(t, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	switch {
	case strings.ContainsAny(t, "/@~:") || strings.Contains(inner, "."):
		return Value
	case strings.ContainsFunc(t, unicode.IsDigit):
		return Number
	}
	var b strings.Builder
	for _, r := range t {
		if unicode.IsLetter(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// Call is the direct form of a call to tool, its arguments left for the
// agent to write.
func Call(tool string) string {
	return fmt.Sprintf(`<tool_call name="%s">{…arguments…}</tool_call>`, html.EscapeString(tool))
}

// Table is a model version's shortcuts, read-only once made.
type Table struct {
	version string
	byText  map[string]bundle.Shortcut
}

// NewTable holds the shortcuts of a model version (keys as Normalize gives
// them). A nil or empty map gives a table that hints nothing.
func NewTable(version string, m map[string]bundle.Shortcut) *Table {
	return &Table{version: version, byText: m}
}

// Len is how many phrasings have a shortcut.
func (t *Table) Len() int {
	if t == nil {
		return 0
	}
	return len(t.byText)
}

// Hint is the shortcut for an intent text, nil when its phrasing has none.
func (t *Table) Hint(text string) *schemas.Hint {
	if t == nil || len(t.byText) == 0 {
		return nil
	}
	s, ok := t.byText[Normalize(text)]
	if !ok || s.Tool == "" {
		return nil
	}
	return &schemas.Hint{ToolID: s.Tool, ToolCall: Call(s.Tool), Count: s.Count, Sessions: s.Sessions, Share: s.Share, Model: t.version}
}
