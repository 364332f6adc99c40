package resolve

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// Param describes a parameter to the agent that has to supply it.
type Param struct {
	Name        string
	Type        string
	Description string
	Enum        []any
	// Example is a value as it would be written in an intent (quoted when
	// it holds spaces): `/tmp`, `50`, `"tech companies"`.
	Example string
}

// MissingError reports required parameters the intent did not supply. Its
// message names each with its description and shows a corrected intent.
type MissingError struct {
	ToolID  string
	Missing []Param
	// Found are the parameters the intent did supply, so the suggested
	// intent is complete.
	Found map[string]any
	// Unmapped are values the intent wrote that a missing parameter would
	// take but could not as written: a day for a start that needs its time
	// of day ("on Monday").
	Unmapped []schemas.Unmapped
	// order is the schema order of Found's keys, for a stable suggestion.
	order []string
}

func (e *MissingError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tool %s is missing required parameter", e.ToolID)
	pronoun := "it"
	if len(e.Missing) > 1 {
		b.WriteString("s:")
		pronoun = "them"
	}
	for i, p := range e.Missing {
		if i > 0 {
			b.WriteString(";")
		}
		b.WriteString(" ")
		b.WriteString(describeParam(p))
	}
	for _, u := range e.Unmapped {
		if e.takesTicker(u.Parameter) {
			fmt.Fprintf(&b, `. %q was read for %s, which takes one ticker symbol, not a company's name nor several`, u.Text, u.Parameter)
			continue
		}
		fmt.Fprintf(&b, `. %q was read for %s, which needs a day and a time of day ("%s at 10am")`, u.Text, u.Parameter, u.Text)
	}
	fmt.Fprintf(&b, ". Give %s as key=value in the intent, e.g. %s", pronoun, e.Example())
	return b.String()
}

// Example is the intent, with the missing parameters added, that would
// resolve: `[TOOL: system/disk_usage path=/tmp]`.
func (e *MissingError) Example() string {
	var b strings.Builder
	b.WriteString("[TOOL: ")
	b.WriteString(e.ToolID)
	keys := e.order
	if len(keys) != len(e.Found) {
		keys = make([]string, 0, len(e.Found))
		for k := range e.Found {
			keys = append(keys, k)
		}
		sort.Strings(keys)
	}
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%s", k, formatValue(e.Found[k]))
	}
	for _, p := range e.Missing {
		fmt.Fprintf(&b, " %s=%s", p.Name, p.Example)
	}
	b.WriteString("]")
	return b.String()
}

// AgainExample is the direct form of a call of toolID with the arguments
// shown (as its result shows them) and param set to value: how to ask for
// a value the parameter could not take beside the one it held. Arguments
// shown redacted are left out: the agent writes its secret again.
func AgainExample(toolID string, shown map[string]any, param, value string) string {
	e := &MissingError{ToolID: toolID, Found: make(map[string]any, len(shown)+1)}
	for k, v := range shown {
		if v != pipeline.Redacted {
			e.Found[k] = v
		}
	}
	e.Found[param] = value
	return e.Example()
}

func describeParam(p Param) string {
	var b strings.Builder
	b.WriteString(p.Name)
	if p.Type != "" || len(p.Enum) > 0 {
		b.WriteString(" (")
		b.WriteString(typeSummary(p.Type, p.Enum))
		b.WriteString(")")
	}
	if p.Description != "" {
		b.WriteString(": ")
		b.WriteString(strings.TrimRight(p.Description, ". "))
	}
	return b.String()
}

func typeSummary(typ string, enum []any) string {
	if len(enum) == 0 {
		return typ
	}
	names := make([]string, len(enum))
	for i, e := range enum {
		names[i] = displayEnum(e)
	}
	return "one of " + strings.Join(names, ", ")
}

// InvalidError reports values that do not meet the tool's schema, each
// problem with what was expected.
type InvalidError struct {
	ToolID   string
	Problems []string
	// Args are the arguments that failed, as read: the stage binding needs
	// them to keep secret ones out of what it writes, since Problems may
	// quote a value.
	Args map[string]any
}

func (e *InvalidError) Error() string {
	return fmt.Sprintf("tool %s: invalid parameters: %s", e.ToolID, strings.Join(e.Problems, "; "))
}

// expectation says what a property takes, for error messages.
func expectation(p *property) string {
	var b strings.Builder
	if t := typeSummary(p.typ, p.enum); t != "" {
		b.WriteString(t)
	} else {
		b.WriteString("a value")
	}
	if p.description != "" {
		b.WriteString(": ")
		b.WriteString(strings.TrimRight(p.description, ". "))
	}
	fmt.Fprintf(&b, ", e.g. %s=%s", p.name, exampleValue(p))
	return b.String()
}

// exampleValue is a plausible value for a property, as written in an
// intent: the schema's example, default or first enum member when it has
// one, else one shaped by the property's name and type.
func exampleValue(p *property) string {
	switch {
	case len(p.examples) > 0:
		return formatValue(p.examples[0])
	case p.hasDefault:
		return formatValue(p.def)
	case len(p.enum) > 0:
		return formatValue(p.enum[0])
	}
	if v, ok := describedExample(p); ok {
		return formatValue(v)
	}
	if currencyProp(p) {
		return "USD" // before the shapes: a currency's "from" is no e-mail sender
	}
	for _, sh := range shapes {
		if fitsName(p, sh.names) && (p.typ == "string" || p.typ == "") {
			return sh.example
		}
	}
	switch p.typ {
	case "integer":
		return "10"
	case "number":
		return "1.5"
	case "boolean":
		return "true"
	case "array":
		return "a,b"
	case "object":
		return `'{"key":"value"}'`
	}
	return `"…"`
}

// formatValue writes a value the way the extractor reads it back.
func formatValue(v any) string {
	switch x := v.(type) {
	case string:
		if x == "" || strings.ContainsAny(x, " \t\n\"',;") || strings.ContainsAny(x[len(x)-1:], ".!?)]}") {
			return strconv.Quote(x)
		}
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		parts := make([]string, len(x))
		for i, it := range x {
			parts[i] = fmt.Sprint(it)
		}
		return formatValue(strings.Join(parts, ","))
	}
	b, _ := json.Marshal(v)
	return "'" + string(b) + "'"
}

func paramOf(p *property) Param {
	return Param{Name: p.name, Type: p.typ, Description: p.description, Enum: p.enum, Example: exampleValue(p)}
}

// schemaProblems turns the validator's "at /limit: maximum: got 500, want
// 100" lines into "limit: maximum: got 500, want 100 (expected …)".
func schemaProblems(s *toolSchema, err error) []string {
	var out []string
	for _, line := range strings.Split(err.Error(), "; ") {
		rest, ok := strings.CutPrefix(line, "at /")
		if !ok {
			if len(out) > 0 {
				// A reason that itself held "; ".
				out[len(out)-1] += "; " + line
				continue
			}
			out = append(out, line)
			continue
		}
		loc, msg, _ := strings.Cut(rest, ": ")
		if loc == "" {
			out = append(out, msg)
			continue
		}
		top, _, _ := strings.Cut(loc, "/")
		if p := s.prop(top); p != nil {
			out = append(out, fmt.Sprintf("%s: %s (expected %s)", loc, msg, expectation(p)))
		} else {
			out = append(out, loc+": "+msg)
		}
	}
	return out
}

func sortedCopy(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

// exampleCues introduce examples in a description: "The city (e.g.,
// London, Paris)", "a format such as CSV". A description's first example
// (describedExample) may also follow "like"; its listed values
// (listedIn) may also follow "i.e.".
var exampleCues = []string{"e.g.,", "e.g.", "eg.", "for example,", "for example", "such as"}

// describedExample is the first example a property's description gives,
// when it has the property's type.
func describedExample(p *property) (any, bool) {
	d := p.description
	lower := strings.ToLower(d)
	for _, cue := range append(exampleCues[:len(exampleCues):len(exampleCues)], "like") {
		i := strings.Index(lower, cue)
		if i < 0 || cue == "like" && (i == 0 || lower[i-1] != ' ') {
			continue
		}
		rest := strings.TrimSpace(d[i+len(cue):])
		end := strings.IndexAny(rest, ",;)")
		if end < 0 {
			end = len(rest)
		}
		v := rest[:end]
		for _, sep := range []string{" or ", " and "} {
			if j := strings.Index(v, sep); j > 0 {
				v = v[:j]
			}
		}
		v = strings.Trim(strings.TrimSpace(v), `"'.`)
		if v == "" || len(v) > 40 || strings.HasSuffix(strings.ToLower(v), " or") {
			continue
		}
		c, err := coerce(p, v)
		if err != nil {
			continue
		}
		return c, true
	}
	return nil, false
}

// takesTicker: the missing parameter name is described as a ticker, so a
// value held for it is a company's name (applyTickers).
func (e *MissingError) takesTicker(name string) bool {
	for _, p := range e.Missing {
		if p.Name == name {
			return strings.Contains(strings.ToLower(p.Description), "ticker")
		}
	}
	return false
}
