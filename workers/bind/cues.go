package bind

import (
	"encoding/json"
	"regexp"
	"strings"
)

// cuePattern is a value given by name in plain words: name=value,
// name: value, name="quoted value" (the form resolve asks for).
var cuePattern = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_-]*)\s*[=:]\s*(?:"([^"]*)"|'([^']*)'|(\S+))`)

// SecretCues finds the values a text gives by name to parameters that
// secret says are secret ("token=abc123" when some tool's token is
// writeOnly). A stage that sees an intent before it is resolved cannot
// know which tool it is for; this is how it still keeps an explicitly
// named secret out of what it writes. A bare value is also listed
// without the punctuation that may end it ("abc123]" and "abc123").
func SecretCues(text string, secret func(name string) bool) []string {
	if !strings.ContainsAny(text, "=:") {
		return nil
	}
	var out []string
	for _, m := range cuePattern.FindAllStringSubmatch(text, -1) {
		if !secret(m[1]) && !secret(strings.ToLower(m[1])) {
			continue
		}
		switch {
		case m[2] != "":
			out = append(out, m[2])
		case m[3] != "":
			out = append(out, m[3])
		default:
			out = append(out, m[4])
			if t := strings.TrimRight(m[4], `])}>.,;:!?'"`); t != m[4] && t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

// SecretCuesJSON is SecretCues over every string of a JSON document (an
// intent's text, its context, its conversation).
func SecretCuesJSON(data []byte, secret func(name string) bool) []string {
	var doc any
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, SecretCues(x, secret)...)
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(doc)
	return out
}
