package schemas

import (
	"encoding/json"
	"fmt"
	"maps"
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

// checkTemplates refuses a tool whose templates the executor could never
// fill: a placeholder that is not one, or one naming no parameter the
// schema declares, in a subprocess tool's argv or an http tool's URL,
// header values and body (the call failed only when made, with not_runnable or
// unsupported). An http template's {env.NAME} must name a variable the
// executor's env lists. An http body is checked as the executor reads it
// (body).
func checkTemplates(m Manifest) error {
	x := m.Executor
	if x == nil || x.Kind != ExecSubprocess && x.Kind != ExecHTTP {
		return nil
	}
	c := templateCheck{m: m, declared: propertyNames(m.Parameters)}
	switch x.Kind {
	case ExecSubprocess:
		for i, el := range x.Argv {
			if err := c.check(fmt.Sprintf("argv[%d]", i), el, false); err != nil {
				return err
			}
		}
	case ExecHTTP:
		if err := c.check("url", x.URL, true); err != nil {
			return err
		}
		for _, name := range slices.Sorted(maps.Keys(x.Headers)) {
			if err := c.check("header "+name, x.Headers[name], true); err != nil {
				return err
			}
		}
		return c.body(x.Body)
	}
	return nil
}

// body checks an http body template as the executor reads it: a JSON
// document's strings each a template (its keys are literal), any other
// body one text template.
func (c *templateCheck) body(tmpl string) error {
	if tmpl == "" {
		return nil
	}
	var doc any
	dec := json.NewDecoder(strings.NewReader(tmpl))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil || dec.More() {
		return c.check("body", tmpl, true)
	}
	var walk func(v any) error
	walk = func(v any) error {
		switch x := v.(type) {
		case string:
			return c.check("body string", x, true)
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if err := walk(x[k]); err != nil {
					return err
				}
			}
		case []any:
			for _, e := range x {
				if err := walk(e); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(doc)
}

// templateCheck checks one manifest's templates against the parameters
// it declares.
type templateCheck struct {
	m        Manifest
	declared []string
}

// check checks one template, at where in the executor; env says whether
// {env.NAME} is a placeholder there (http templates).
func (c *templateCheck) check(where, tmpl string, env bool) error {
	parts, err := SplitTemplate(tmpl)
	if err != nil {
		return fmt.Errorf("tool %s: executor %s %q: %w", c.m.ID, where, tmpl, err)
	}
	for _, p := range parts {
		if p.Name == "" {
			continue
		}
		if name, ok := strings.CutPrefix(p.Name, "env."); ok && env {
			if !envListed(name, c.m.Executor.Env) {
				return fmt.Errorf("tool %s: executor %s %q: {env.%s} names a variable the executor's env does not list: add %q (passed from the worker's environment) or %q to executor.env",
					c.m.ID, where, tmpl, name, name, name+"=VALUE")
			}
			continue
		}
		if !slices.Contains(c.declared, p.Name) {
			have := "it declares none"
			if len(c.declared) > 0 {
				have = "it declares " + strings.Join(c.declared, ", ")
			}
			return fmt.Errorf("tool %s: executor %s %q: placeholder {%s} names no parameter of the tool's schema (%s): declare %s under parameters.properties, or write {{%s}} for literal braces",
				c.m.ID, where, tmpl, p.Name, have, p.Name, p.Name)
		}
	}
	return nil
}

// envListed says whether an executor's env entries (NAME, or NAME=value)
// list name.
func envListed(name string, entries []string) bool {
	for _, e := range entries {
		if k, _, _ := strings.Cut(e, "="); k == name {
			return true
		}
	}
	return false
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
