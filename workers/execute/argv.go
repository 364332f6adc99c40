package execute

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// expandArgv fills an argv template. An element that is exactly one
// placeholder becomes one element per item for an array value, and
// disappears for an absent optional parameter; a placeholder inside a
// longer element takes the value's string form (arrays comma-joined), and
// the element disappears when the parameter is absent and optional. A
// placeholder for a required parameter that is absent — or for a name the
// schema does not declare — is an error, since running without it would
// run something else.
func expandArgv(toolID string, tmpl []string, params map[string]any, info *paramInfo) ([]string, error) {
	out := make([]string, 0, len(tmpl))
	for i, el := range tmpl {
		parts, err := splitTemplate(el)
		if err != nil {
			return nil, badCall(ErrUnsupported, "tool %s: argv[%d] %q: %w", toolID, i, el, err)
		}
		if len(parts) == 1 && parts[0].name != "" {
			name := parts[0].name
			v, ok := params[name]
			if !ok || v == nil {
				if err := absent(toolID, name, info); err != nil {
					return nil, err
				}
				continue
			}
			switch items := v.(type) {
			case []any:
				for _, it := range items {
					out = append(out, argString(it))
				}
				continue
			case []string:
				out = append(out, items...)
				continue
			}
			out = append(out, argString(v))
			continue
		}
		var b strings.Builder
		drop := false
		for _, p := range parts {
			if p.name == "" {
				b.WriteString(p.literal)
				continue
			}
			v, ok := params[p.name]
			if !ok || v == nil {
				if err := absent(toolID, p.name, info); err != nil {
					return nil, err
				}
				drop = true
				break
			}
			b.WriteString(argString(v))
		}
		if !drop {
			out = append(out, b.String())
		}
	}
	if len(out) == 0 || out[0] == "" {
		return nil, badCall(ErrInvalidParameters, "tool %s: argv template %q expands to no command", toolID, tmpl)
	}
	return out, nil
}

func absent(toolID, name string, info *paramInfo) error {
	switch {
	case info.required[name]:
		return badCall(ErrInvalidParameters, "tool %s: required parameter %q is missing", toolID, name)
	case !info.props[name]:
		return badCall(ErrUnsupported, "tool %s: argv placeholder {%s} names no declared parameter and none was given", toolID, name)
	}
	return nil
}

type templatePart struct {
	literal string
	name    string
}

// splitTemplate parses "{name}" placeholders; "{{" and "}}" are literal
// braces, so a template can pass programs like awk's '{print $1}' by
// writing '{{print $1}}'.
func splitTemplate(s string) ([]templatePart, error) {
	var parts []templatePart
	var lit strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{' && i+1 < len(s) && s[i+1] == '{':
			lit.WriteByte('{')
			i++
		case c == '}' && i+1 < len(s) && s[i+1] == '}':
			lit.WriteByte('}')
			i++
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("unclosed { at byte %d (write {{ for a literal brace)", i)
			}
			name := s[i+1 : i+end]
			if !validName(name) {
				return nil, fmt.Errorf("placeholder {%s} is not a parameter name (write {{ and }} for literal braces)", name)
			}
			if lit.Len() > 0 {
				parts = append(parts, templatePart{literal: lit.String()})
				lit.Reset()
			}
			parts = append(parts, templatePart{name: name})
			i += end
		case c == '}':
			return nil, fmt.Errorf("unmatched } at byte %d (write }} for a literal brace)", i)
		default:
			lit.WriteByte(c)
		}
	}
	if lit.Len() > 0 || len(parts) == 0 {
		parts = append(parts, templatePart{literal: lit.String()})
	}
	return parts, nil
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// argString is a value's command-line form: strings as they are, numbers
// without exponent or trailing zeros, arrays comma-joined, objects as JSON.
func argString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case json.Number:
		return x.String()
	case []any:
		parts := make([]string, len(x))
		for i, it := range x {
			parts[i] = argString(it)
		}
		return strings.Join(parts, ",")
	case []string:
		return strings.Join(x, ",")
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
