package parse

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strings"
)

// jsonObject decodes a JSON object. JSON that an agent escaped for XML
// (&quot;) is unescaped when it does not parse as is.
func jsonObject(s string) (map[string]any, error) {
	m, err := jsonObjectRaw(s)
	if err != nil && strings.Contains(s, "&") {
		if u, uerr := xmlUnescape(s); uerr == nil {
			if m2, err2 := jsonObjectRaw(u); err2 == nil {
				return m2, nil
			}
		}
	}
	return m, err
}

func jsonObjectRaw(s string) (map[string]any, error) {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("got %s", jsonKind(v))
	}
	return m, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "null"
}

func xmlUnescape(s string) (string, error) {
	dec := newXMLDecoder("<x>" + s + "</x>")
	var out string
	err := dec.Decode(&out)
	return out, err
}

// newXMLDecoder is a strict decoder that knows the HTML entities and lets a
// bare "&" stand for itself, as agents write "cats & dogs".
func newXMLDecoder(src string) *xml.Decoder {
	dec := xml.NewDecoder(strings.NewReader(escapeBareAmp(src)))
	dec.Entity = xml.HTMLEntity
	return dec
}

// escapeBareAmp escapes every "&" that does not start an entity reference.
func escapeBareAmp(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '&' && !isEntityRef(s[i+1:]) {
			b.WriteString("&amp;")
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// isEntityRef reports whether s (what follows an "&") is "name;" or "#…;".
func isEntityRef(s string) bool {
	for i := 0; i < len(s) && i < 32; i++ {
		c := s[i]
		switch {
		case c == ';':
			return i > 0
		case c == '#' && i == 0, c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return false
}

// clip shortens s to n runes for a message.
func clip(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i] + "…"
		}
		n--
	}
	return s
}
