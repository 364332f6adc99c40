package kiwi

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// configSchema turns the body of a "Config Schema:" docstring section into
// the tool's parameters, a JSON Schema object. The body is either a JSON
// document (optionally in a ``` fence) or one line per parameter; see the
// package documentation for both forms.
func configSchema(body []string) (map[string]any, error) {
	lines := dedent(body)
	if len(lines) == 0 {
		return nil, fmt.Errorf("the Config Schema section is empty")
	}
	if strings.HasPrefix(strings.TrimSpace(lines[0]), "```") {
		lines = lines[1:]
		end := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "```") })
		if end < 0 {
			return nil, fmt.Errorf("the Config Schema section opens a ``` fence that is never closed")
		}
		lines = lines[:end]
	}
	if len(lines) > 0 && strings.HasPrefix(strings.TrimSpace(lines[0]), "{") {
		return jsonSchemaBlock(strings.Join(lines, "\n"))
	}
	return paramLines(lines)
}

func dedent(body []string) []string {
	for len(body) > 0 && strings.TrimSpace(body[0]) == "" {
		body = body[1:]
	}
	for len(body) > 0 && strings.TrimSpace(body[len(body)-1]) == "" {
		body = body[:len(body)-1]
	}
	indent := -1
	for _, l := range body {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if n := len(l) - len(strings.TrimLeft(l, " ")); indent < 0 || n < indent {
			indent = n
		}
	}
	out := make([]string, len(body))
	for i, l := range body {
		if len(l) >= indent {
			l = l[indent:]
		}
		out[i] = l
	}
	return out
}

// jsonSchemaBlock reads a JSON Config Schema: a whole object schema, or
// (when it has none of type, properties, $schema, required at the top) a map
// from parameter name to that parameter's schema, where "required": true
// marks a required one.
func jsonSchemaBlock(text string) (map[string]any, error) {
	var doc map[string]any
	dec := json.NewDecoder(strings.NewReader(text))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("the Config Schema JSON is not valid: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("the Config Schema JSON has text after the object")
	}
	for _, k := range []string{"type", "properties", "$schema", "required"} {
		if _, ok := doc[k]; ok {
			if _, ok := doc["type"]; !ok {
				doc["type"] = "object"
			}
			return doc, nil
		}
	}
	props := map[string]any{}
	var required []any
	for name, v := range doc {
		p, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("the Config Schema JSON: parameter %q must be a schema object, got %v", name, v)
		}
		if r, ok := p["required"].(bool); ok {
			delete(p, "required")
			if r {
				required = append(required, name)
			}
		}
		props[name] = p
	}
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		slices.SortFunc(required, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
		out["required"] = required
	}
	return out, nil
}

// paramLine: "- name (type, modifiers): description", with the bullet, the
// parenthesis and the description all optional; " - " or " — " may stand
// for the colon.
var paramLine = regexp.MustCompile(`^(?:[-*•+]\s+)?` + "`?" + `\*{0,2}([A-Za-z_][A-Za-z0-9_.\-]*)\*{0,2}` + "`?" + `\s*(?:\((.*?)\))?\s*(?:(?::|-|--|—)\s*(.*))?$`)

// defaultInText finds a default stated in a description: "Defaults to 10.",
// "(default: fast)", "Default is 'x'".
var defaultInText = regexp.MustCompile(`(?i)\bdefaults?(?:\s+to|\s+is|\s*:|\s*=)\s*("[^"]*"|'[^']*'|[^\s,;)]+)`)

func paramLines(lines []string) (map[string]any, error) {
	props := map[string]any{}
	var required []any
	var cur map[string]any
	var curName string
	var desc []string
	var defaultFromSpec bool
	finish := func() error {
		if cur == nil {
			return nil
		}
		text := strings.Join(strings.Fields(strings.Join(desc, " ")), " ")
		if text != "" {
			cur["description"] = text
		}
		if _, ok := cur["default"]; !ok && !defaultFromSpec {
			if m := defaultInText.FindStringSubmatch(text); m != nil {
				v, err := defaultValue(strings.TrimSuffix(m[1], "."), cur)
				if err != nil {
					return fmt.Errorf("parameter %s: %w", curName, err)
				}
				cur["default"] = v
			}
		}
		if _, hasDefault := cur["default"]; !hasDefault && cur["x-required"] == true {
			required = append(required, curName)
		}
		delete(cur, "x-required")
		props[curName] = cur
		cur = nil
		return nil
	}
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if strings.HasPrefix(l, " ") {
			if cur == nil {
				return nil, fmt.Errorf("line %d of the Config Schema: %q is indented but follows no parameter", i+1, strings.TrimSpace(l))
			}
			desc = append(desc, strings.TrimSpace(l))
			continue
		}
		if err := finish(); err != nil {
			return nil, err
		}
		m := paramLine.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			return nil, fmt.Errorf("line %d of the Config Schema: cannot read %q; write one parameter per line as `name (type): description`, or give a JSON schema", i+1, l)
		}
		curName = m[1]
		if _, dup := props[curName]; dup {
			return nil, fmt.Errorf("parameter %q is described twice in the Config Schema", curName)
		}
		p, fromSpec, err := paramSpec(m[2])
		if err != nil {
			return nil, fmt.Errorf("parameter %s of the Config Schema: %w", curName, err)
		}
		cur, defaultFromSpec, desc = p, fromSpec, nil
		if m[3] != "" {
			desc = append(desc, m[3])
		}
	}
	if err := finish(); err != nil {
		return nil, err
	}
	if len(props) == 0 {
		return nil, fmt.Errorf("the Config Schema section names no parameter")
	}
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		out["required"] = required
	}
	return out, nil
}

// paramSpec reads what is inside the parentheses: a type and modifiers
// (optional, required, default X, one of a|b|c), comma-separated.
func paramSpec(spec string) (p map[string]any, hasDefault bool, err error) {
	p = map[string]any{"x-required": true}
	typed := false
	var defText string
	for _, part := range splitTop(spec) {
		part = strings.TrimSpace(part)
		low := strings.ToLower(part)
		switch {
		case part == "":
		case low == "optional":
			p["x-required"] = false
		case low == "required":
			p["x-required"] = true
		case strings.HasPrefix(low, "default"):
			rest := strings.TrimSpace(part[len("default"):])
			rest = strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(rest, "s")), "to ")
			rest = strings.TrimSpace(strings.TrimLeft(rest, ":= "))
			if rest == "" {
				return nil, false, fmt.Errorf("%q gives no default value", part)
			}
			defText, hasDefault = rest, true
		case strings.HasPrefix(low, "one of"):
			var enum []any
			for _, v := range strings.FieldsFunc(strings.TrimLeft(part[len("one of"):], ": "), func(r rune) bool { return r == '|' || r == '/' }) {
				enum = append(enum, scalar(strings.TrimSpace(v)))
			}
			if len(enum) == 0 {
				return nil, false, fmt.Errorf("%q lists no value", part)
			}
			p["enum"] = enum
		case !typed:
			t, optional, err := typeExpr(part, 0)
			if err != nil {
				return nil, false, err
			}
			for k, v := range t {
				p[k] = v
			}
			if optional {
				p["x-required"] = false
			}
			typed = true
		default:
			return nil, false, fmt.Errorf("cannot read %q: after the type, write optional, required, default X or one of a|b", part)
		}
	}
	if !typed {
		p["type"] = "string"
	}
	if hasDefault {
		v, err := defaultValue(defText, p)
		if err != nil {
			return nil, false, err
		}
		p["default"] = v
	}
	return p, hasDefault, nil
}

// splitTop splits at commas outside brackets and quotes.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	var quote rune
	for i, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == '[' || r == '(' || r == '{':
			depth++
		case r == ']' || r == ')' || r == '}':
			depth--
		case r == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

var simpleTypes = map[string]map[string]any{
	"str": {"type": "string"}, "string": {"type": "string"}, "text": {"type": "string"},
	"int": {"type": "integer"}, "integer": {"type": "integer"},
	"float": {"type": "number"}, "number": {"type": "number"}, "double": {"type": "number"}, "decimal": {"type": "number"},
	"bool": {"type": "boolean"}, "boolean": {"type": "boolean"},
	"list": {"type": "array"}, "array": {"type": "array"}, "tuple": {"type": "array"}, "sequence": {"type": "array"},
	"dict": {"type": "object"}, "object": {"type": "object"}, "mapping": {"type": "object"}, "json": {"type": "object"},
	"any":  {},
	"path": {"type": "string"}, "file": {"type": "string"}, "filepath": {"type": "string"},
	"url": {"type": "string", "format": "uri"}, "uri": {"type": "string", "format": "uri"},
	"email": {"type": "string", "format": "email"}, "date": {"type": "string", "format": "date"},
	"datetime": {"type": "string", "format": "date-time"},
}

func knownTypes() string {
	names := make([]string, 0, len(simpleTypes))
	for k := range simpleTypes {
		names = append(names, k)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// typeExpr reads a Python-style or JSON-Schema-style type: str, int,
// list[str], list of int, str[], dict[str, int], Optional[X], X | None,
// int | str, Literal["a", "b"]. optional is true when None is allowed.
func typeExpr(s string, depth int) (schema map[string]any, optional bool, err error) {
	if depth > 10 {
		return nil, false, fmt.Errorf("type %q nests too deeply", s)
	}
	s = strings.TrimSpace(s)
	low := strings.ToLower(s)
	if alts := splitUnion(s); len(alts) > 1 {
		var types []any
		var sch map[string]any
		for _, a := range alts {
			if strings.EqualFold(strings.TrimSpace(a), "none") || strings.EqualFold(strings.TrimSpace(a), "null") {
				optional = true
				continue
			}
			t, _, err := typeExpr(a, depth+1)
			if err != nil {
				return nil, false, err
			}
			sch = t
			if tt, ok := t["type"].(string); ok && len(t) == 1 {
				types = append(types, tt)
			} else {
				types = nil
			}
		}
		switch {
		case len(types) > 1:
			return map[string]any{"type": types}, optional, nil
		case sch != nil && len(alts)-boolInt(optional) == 1:
			return sch, optional, nil
		}
		return nil, false, fmt.Errorf("type %q: unions are read only of simple types (str | int) or with None", s)
	}
	if inner, ok := generic(s, "optional"); ok {
		t, _, err := typeExpr(inner, depth+1)
		return t, true, err
	}
	if inner, ok := generic(s, "union"); ok {
		return typeExpr(strings.Join(splitTop(inner), "|"), depth+1)
	}
	if inner, ok := generic(s, "literal"); ok {
		var enum []any
		for _, v := range splitTop(inner) {
			enum = append(enum, scalar(strings.TrimSpace(v)))
		}
		return map[string]any{"enum": enum}, false, nil
	}
	for _, seq := range []string{"list", "array", "sequence", "tuple", "set"} {
		if inner, ok := generic(s, seq); ok {
			t, _, err := typeExpr(strings.TrimSpace(splitTop(inner)[0]), depth+1)
			if err != nil {
				return nil, false, err
			}
			return map[string]any{"type": "array", "items": t}, false, nil
		}
		if rest, ok := strings.CutPrefix(low, seq+" of "); ok {
			t, _, err := typeExpr(strings.TrimSuffix(strings.TrimSpace(rest), "s"), depth+1)
			if err != nil {
				if t, _, err2 := typeExpr(strings.TrimSpace(rest), depth+1); err2 == nil {
					return map[string]any{"type": "array", "items": t}, false, nil
				}
				return nil, false, err
			}
			return map[string]any{"type": "array", "items": t}, false, nil
		}
	}
	if strings.HasSuffix(s, "[]") {
		t, _, err := typeExpr(strings.TrimSuffix(s, "[]"), depth+1)
		if err != nil {
			return nil, false, err
		}
		return map[string]any{"type": "array", "items": t}, false, nil
	}
	for _, m := range []string{"dict", "mapping", "object"} {
		if inner, ok := generic(s, m); ok {
			parts := splitTop(inner)
			if len(parts) != 2 {
				return nil, false, fmt.Errorf("type %q: want dict[str, X]", s)
			}
			t, _, err := typeExpr(parts[1], depth+1)
			if err != nil {
				return nil, false, err
			}
			return map[string]any{"type": "object", "additionalProperties": t}, false, nil
		}
	}
	if t, ok := simpleTypes[low]; ok {
		out := map[string]any{}
		for k, v := range t {
			out[k] = v
		}
		return out, false, nil
	}
	return nil, false, fmt.Errorf("unknown type %q (known: %s; also list[X], list of X, X[], dict[str, X], Optional[X], X | None, Literal[...])", s, knownTypes())
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// generic reads Name[inner] (case-insensitive name, typing.Name too).
func generic(s, name string) (string, bool) {
	low := strings.ToLower(s)
	low = strings.TrimPrefix(low, "typing.")
	off := len(s) - len(low)
	if !strings.HasPrefix(low, name+"[") || !strings.HasSuffix(s, "]") {
		return "", false
	}
	return s[off+len(name)+1 : len(s)-1], true
}

// splitUnion splits at top-level "|".
func splitUnion(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case '|':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// scalar reads a written value: JSON, a Python literal, or else the text.
func scalar(s string) any {
	var v any
	if json.Unmarshal([]byte(s), &v) == nil {
		return v
	}
	if toks, err := statements(s); err == nil && len(toks) == 1 {
		if v, err := literal(toks[0].toks); err == nil {
			return jsonable(v)
		}
	}
	return strings.Trim(s, "`")
}

// jsonable turns literal values into what encoding/json produces.
func jsonable(v any) any {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case []any:
		for i := range x {
			x[i] = jsonable(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = jsonable(x[k])
		}
	}
	return v
}

// defaultValue reads a default and checks it against the parameter's type.
func defaultValue(text string, p map[string]any) (any, error) {
	v := scalar(text)
	typ, _ := p["type"].(string)
	switch typ {
	case "string":
		if _, ok := v.(string); !ok {
			v = text
			if s, ok := scalar(text).(float64); ok {
				v = strings.TrimSpace(fmt.Sprint(s))
			}
		}
	case "integer":
		f, ok := v.(float64)
		if !ok || f != float64(int64(f)) {
			return nil, fmt.Errorf("default %q is not an integer", text)
		}
	case "number":
		if _, ok := v.(float64); !ok {
			return nil, fmt.Errorf("default %q is not a number", text)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return nil, fmt.Errorf("default %q is not a boolean (True/False)", text)
		}
	case "array":
		if _, ok := v.([]any); !ok {
			return nil, fmt.Errorf("default %q is not a list", text)
		}
	case "object":
		if _, ok := v.(map[string]any); !ok {
			return nil, fmt.Errorf("default %q is not a dict", text)
		}
	}
	if enum, ok := p["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		return nil, fmt.Errorf("default %q is not one of %v", text, enum)
	}
	return v, nil
}
