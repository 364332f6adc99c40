package llmresolve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/resolve"
)

// How much of each text a prompt carries: small models reason worse the
// longer the prompt, and the candidates' essentials fit in these.
const (
	maxToolDescRunes  = 240
	maxParamDescRunes = 100
	maxEnumShown      = 12
	maxParamsShown    = 24
)

// entry is one candidate with its manifest and the parameters read from it.
type entry struct {
	cand   schemas.Candidate
	tool   schemas.Manifest
	params []param
}

// param is what a prompt says of one parameter.
type param struct {
	name     string
	typ      string
	desc     string
	enum     []string
	required bool
}

// inventory looks up the routed candidates that are still in the registry.
func inventory(cs []schemas.Candidate, lookup resolve.Lookup) []entry {
	out := make([]entry, 0, len(cs))
	for _, c := range cs {
		m, ok := lookup(c.ToolID)
		if !ok {
			continue
		}
		out = append(out, entry{cand: c, tool: m, params: readParams(m.Parameters)})
	}
	return out
}

// readParams reads the top-level properties of a parameter schema in the
// order the schema lists them (the order its author thought natural).
// Anything it cannot read gives fewer parameters, never an error: the
// schema is validated properly where it matters.
func readParams(raw json.RawMessage) []param {
	var doc struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &doc) != nil || len(doc.Properties) == 0 {
		return nil
	}
	names, err := objectKeys(doc.Properties)
	if err != nil {
		return nil
	}
	var props map[string]struct {
		Type        any    `json:"type"`
		Description string `json:"description"`
		Enum        []any  `json:"enum"`
		Items       *struct {
			Type any   `json:"type"`
			Enum []any `json:"enum"`
		} `json:"items"`
	}
	if json.Unmarshal(doc.Properties, &props) != nil {
		return nil
	}
	out := make([]param, 0, len(names))
	for _, n := range names {
		p := props[n]
		typ := typeName(p.Type)
		enum := p.Enum
		if p.Items != nil {
			typ = "array of " + orAny(typeName(p.Items.Type))
			if len(enum) == 0 {
				enum = p.Items.Enum
			}
		}
		q := param{name: n, typ: orAny(typ), desc: p.Description, required: slices.Contains(doc.Required, n)}
		for _, v := range enum {
			if v == nil {
				q.enum = append(q.enum, "null")
				continue
			}
			q.enum = append(q.enum, fmt.Sprint(v))
		}
		out = append(out, q)
	}
	return out
}

// objectKeys lists the keys of a JSON object in document order.
func objectKeys(raw json.RawMessage) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not an object")
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

func typeName(t any) string {
	switch t := t.(type) {
	case string:
		return t
	case []any:
		var parts []string
		for _, x := range t {
			if s, ok := x.(string); ok && s != "null" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "|")
	}
	return ""
}

func orAny(s string) string {
	if s == "" {
		return "any"
	}
	return s
}

// writeTool renders one candidate in a few lines:
//
//   - tool: maps/scrape  (server: maps)
//     does: Scrape Google Maps for places matching a query
//     params: query (string, required): what to look for; limit (integer)
func writeTool(b *strings.Builder, e entry, withParamDesc bool) {
	fmt.Fprintf(b, "- tool: %s", e.tool.ID)
	if s := e.tool.ServerName(); s != "" {
		fmt.Fprintf(b, "  (server: %s)", s)
	}
	b.WriteString("\n")
	if d := oneLine(e.tool.Description, maxToolDescRunes); d != "" {
		fmt.Fprintf(b, "  does: %s\n", d)
	}
	if len(e.params) == 0 {
		b.WriteString("  params: none\n")
		return
	}
	b.WriteString("  params: ")
	writeParams(b, e.params, withParamDesc, "; ")
	b.WriteString("\n")
}

// writeParams renders parameters as "name (type, required, one of: a|b): description".
func writeParams(b *strings.Builder, ps []param, withDesc bool, sep string) {
	for i, p := range ps {
		if i == maxParamsShown {
			fmt.Fprintf(b, "%s… %d more", sep, len(ps)-i)
			break
		}
		if i > 0 {
			b.WriteString(sep)
		}
		fmt.Fprintf(b, "%s (%s", p.name, p.typ)
		if p.required {
			b.WriteString(", required")
		}
		if len(p.enum) > 0 {
			shown := p.enum[:min(len(p.enum), maxEnumShown)]
			fmt.Fprintf(b, ", one of: %s", strings.Join(shown, "|"))
			if len(p.enum) > maxEnumShown {
				b.WriteString("|…")
			}
		}
		b.WriteString(")")
		if d := oneLine(p.desc, maxParamDescRunes); withDesc && d != "" {
			fmt.Fprintf(b, ": %s", d)
		}
	}
}

// oneLine is s on one line, clipped to n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n])) + "…"
}

// paramNames lists the declared parameter names.
func paramNames(ps []param) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.name
	}
	return out
}
