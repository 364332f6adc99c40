package execute

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

const generalHelp = `Toolyard finds and runs tools for you. Ask for a tool anywhere in your output:

  [TOOL: what you want, in plain words]

for example [TOOL: show disk usage of /tmp] or
[TOOL: run the google maps scraper for tech companies, limit 50].
Give values as key=value, key="value with spaces" or key: value; lists as a,b,c.
Values can also be written the way you would say them ("limit 50", "20 lines",
a quoted string, a path such as /etc/hosts).

When you know the tool's id, call it directly with JSON arguments:

  <tool_call name="files/count_lines">{"path": "/etc/hosts"}</tool_call>

Meta-tools, usable both ways:
  search  find tools by what they do:       [TOOL: search for tools that convert pdf to text]
  load    show a tool's full manifest:      [TOOL: show the manifest of files/checksum]
  help    this text, or help for one tool:  [TOOL: help with files/checksum]
  execute run a tool (what every other [TOOL: …] does)
  find_tools  add the tools for a task to your session: [TOOL: find_tools resize images]
  activate    add one tool by id and see how to call it: [TOOL: activate files/checksum]

If a request matches several tools you get the alternatives back; repeat the
request with the tool's id or more detail. If parameters are missing, the
answer says which and shows the corrected request.`

func (e *Executor) help(ctx context.Context, call schemas.ToolCall, params map[string]any) (any, error) {
	id, named := e.target(call, params, HelpID)
	if id == "" {
		text := generalHelp
		// A single word that names no tool is probably a mistyped id; a
		// phrase is a question ("how do I write intents"), which general
		// help answers.
		if named != "" && !strings.ContainsAny(named, " \t\n") {
			text = fmt.Sprintf("There is no tool %q%s\n\n%s", named, e.didYouMean(ctx, named), generalHelp)
		}
		metas := make([]any, 0, len(e.builtins))
		for _, m := range BuiltinManifests() {
			metas = append(metas, map[string]any{"id": m.ID, "name": m.Name, "description": m.Description, "example": "[TOOL: " + m.Examples[0] + "]"})
		}
		return map[string]any{"text": text, "meta_tools": metas}, nil
	}
	return e.toolHelpValue(id)
}

// paramDoc is one parameter as help shows it.
type paramDoc struct {
	Name        string `json:"name"`
	Type        string `json:"type,omitempty"`
	Required    bool   `json:"required"`
	Description string `json:"description,omitempty"`
	Default     any    `json:"default,omitempty"`
	Enum        []any  `json:"enum,omitempty"`
	Example     any    `json:"example,omitempty"`
}

func describeParams(m schemas.Manifest) ([]paramDoc, error) {
	if len(bytes.TrimSpace(m.Parameters)) == 0 {
		return nil, nil
	}
	var doc struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(m.Parameters, &doc); err != nil {
		return nil, badCall(ErrUnsupported, "tool %s: parameters: %w", m.ID, err)
	}
	var out []paramDoc
	err := eachProperty(doc.Properties, func(name string, body json.RawMessage) error {
		var p struct {
			Type        any    `json:"type"`
			Description string `json:"description"`
			Default     any    `json:"default"`
			Enum        []any  `json:"enum"`
			Examples    []any  `json:"examples"`
		}
		_ = json.Unmarshal(body, &p) // a boolean schema documents nothing
		d := paramDoc{Name: name, Required: slices.Contains(doc.Required, name), Description: p.Description, Default: p.Default, Enum: p.Enum}
		switch t := p.Type.(type) {
		case string:
			d.Type = t
		case []any:
			parts := make([]string, 0, len(t))
			for _, x := range t {
				parts = append(parts, fmt.Sprint(x))
			}
			d.Type = strings.Join(parts, "|")
		}
		if len(p.Examples) > 0 {
			d.Example = p.Examples[0]
		}
		out = append(out, d)
		return nil
	})
	if err != nil {
		return nil, badCall(ErrUnsupported, "tool %s: parameters: %w", m.ID, err)
	}
	return out, nil
}

// eachProperty walks a properties object in document order, the order the
// tool's author chose to present them.
func eachProperty(raw json.RawMessage, f func(string, json.RawMessage) error) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var body json.RawMessage
		if err := dec.Decode(&body); err != nil {
			return err
		}
		name, _ := tok.(string)
		if err := f(name, body); err != nil {
			return err
		}
	}
	return nil
}

func toolHelp(m schemas.Manifest, ps []paramDoc) map[string]any {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s\n", m.Name, m.ID, m.Description)
	if len(ps) == 0 {
		b.WriteString("It takes no parameters.\n")
	} else {
		b.WriteString("Parameters:\n")
	}
	intent := []string{m.ID}
	args := map[string]any{}
	for _, p := range ps {
		req := "optional"
		if p.Required {
			req = "required"
		}
		fmt.Fprintf(&b, "  %s (%s, %s)", p.Name, orDefault(p.Type, "any"), req)
		if p.Description != "" {
			fmt.Fprintf(&b, ": %s", p.Description)
		}
		if len(p.Enum) > 0 {
			fmt.Fprintf(&b, "; one of %s", joinAny(p.Enum))
		}
		if p.Default != nil {
			fmt.Fprintf(&b, "; default %v", p.Default)
		}
		b.WriteString("\n")
		if p.Required {
			ex := exampleOf(p)
			if ex == nil {
				ex = "…"
			}
			intent = append(intent, fmt.Sprintf("%s=%s", p.Name, intentValue(ex)))
			args[p.Name] = ex
		}
	}
	argJSON, _ := json.Marshal(args)
	usage := fmt.Sprintf("[TOOL: %s]", strings.Join(intent, " "))
	call := fmt.Sprintf(`<tool_call name="%s">%s</tool_call>`, m.ID, argJSON)
	fmt.Fprintf(&b, "Ask for it as %s or call it directly as %s", usage, call)
	if len(m.Examples) > 0 {
		fmt.Fprintf(&b, "\nExamples: %s", strings.Join(m.Examples, "; "))
	}
	if m.Executor == nil {
		b.WriteString("\nThis tool is registered for discovery but has no executor here, so it cannot be run.")
	}
	return map[string]any{
		"id": m.ID, "name": m.Name, "description": m.Description, "parameters": ps,
		"examples": m.Examples, "runnable": m.Executor != nil,
		"usage": usage, "tool_call": call, "text": b.String(),
	}
}

func exampleOf(p paramDoc) any {
	switch {
	case p.Example != nil:
		return p.Example
	case p.Default != nil:
		return p.Default
	case len(p.Enum) > 0:
		return p.Enum[0]
	}
	return nil
}

func intentValue(v any) string {
	s := argString(v)
	if s == "" || s == "…" || strings.ContainsAny(s, " \t\"',;") {
		b, _ := json.Marshal(s)
		return string(b)
	}
	return s
}

func joinAny(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ", ")
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
