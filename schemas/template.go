package schemas

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// TemplatePart is a piece of a template: literal text, or the placeholder
// of the parameter Name.
type TemplatePart struct {
	Literal string
	Name    string
}

// SplitTemplate parses "{name}" placeholders; "{{" and "}}" are literal
// braces, so a template can pass programs like awk's '{print $1}' by
// writing '{{print $1}}'.
func SplitTemplate(s string) ([]TemplatePart, error) {
	var parts []TemplatePart
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
			if !validPlaceholder(name) {
				return nil, fmt.Errorf("placeholder {%s} is not a parameter name (write {{ and }} for literal braces)", name)
			}
			if lit.Len() > 0 {
				parts = append(parts, TemplatePart{Literal: lit.String()})
				lit.Reset()
			}
			parts = append(parts, TemplatePart{Name: name})
			i += end
		case c == '}':
			return nil, fmt.Errorf("unmatched } at byte %d (write }} for a literal brace)", i)
		default:
			lit.WriteByte(c)
		}
	}
	if lit.Len() > 0 || len(parts) == 0 {
		parts = append(parts, TemplatePart{Literal: lit.String()})
	}
	return parts, nil
}

func validPlaceholder(s string) bool {
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

// checkArgv refuses a subprocess tool whose argv template the executor
// could never fill: a placeholder that is not one, or one naming no
// parameter the schema declares (the call failed only when made, with
// not_runnable).
func checkArgv(m Manifest) error {
	if m.Executor == nil || m.Executor.Kind != ExecSubprocess {
		return nil
	}
	var declared []string
	for i, el := range m.Executor.Argv {
		parts, err := SplitTemplate(el)
		if err != nil {
			return fmt.Errorf("tool %s: executor argv[%d] %q: %w", m.ID, i, el, err)
		}
		for _, p := range parts {
			if p.Name == "" {
				continue
			}
			if declared == nil {
				declared = propertyNames(m.Parameters)
			}
			if !slices.Contains(declared, p.Name) {
				have := "it declares none"
				if len(declared) > 0 {
					have = "it declares " + strings.Join(declared, ", ")
				}
				return fmt.Errorf("tool %s: executor argv[%d] %q: placeholder {%s} names no parameter of the tool's schema (%s): declare %s under parameters.properties, or write {{%s}} for literal braces",
					m.ID, i, el, p.Name, have, p.Name, p.Name)
			}
		}
	}
	return nil
}

// propertyNames are the names of a parameter schema's top-level
// properties, sorted (none when it has none or is not an object schema).
func propertyNames(params json.RawMessage) []string {
	var doc struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if len(params) == 0 || json.Unmarshal(params, &doc) != nil {
		return []string{}
	}
	names := make([]string, 0, len(doc.Properties))
	for name := range doc.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
