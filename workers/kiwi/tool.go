package kiwi

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolyard/toolyard/schemas"
)

// ToolTypes are the accepted values of __tool_type__:
//
//	python   a Python script, run by the runtime its __executor_id__ names
//	script   any other script, run the same way
//	api      a script that wraps a remote API (same execution; marks the
//	         tool as reaching the network)
//	runtime  a runtime that other tools name as their executor
var ToolTypes = []string{"python", "script", "api", "runtime"}

// ScriptParam is the parameter that carries the tool's source file down the
// delegation chain to its runtime: a constant, filled in by its default, so
// the runtime tool's argv can name {script_path}.
const ScriptParam = "script_path"

// Tool is one parsed tool file.
type Tool struct {
	// Name is the file's path under .ai/tools without ".py"
	// ("scraping/google_maps").
	Name        string
	Path        string
	Version     string
	ToolType    string
	ExecutorID  string
	Category    string
	Description string
	// Permissions are __permissions__ (a list of strings), plus "net" for
	// tools of type api.
	Permissions []string
	// Parameters is the JSON Schema object of the Config Schema (with
	// ScriptParam added).
	Parameters map[string]any
	// Signature is set when the file carries a valid signature line.
	Signature *Signature
}

// semver is Semantic Versioning 2.0.0's own pattern.
var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// maxSource bounds a tool file: larger ones are refused unread.
const maxSource = 1 << 20

// Parse reads a tool file statically. name is its tool name, path where it
// lives (for the runtime). Every problem is an error that says what to fix;
// a file with a signature line is refused unless the signature holds.
func Parse(name, path string, src []byte) (Tool, error) {
	t := Tool{Name: name, Path: path}
	if len(src) > maxSource {
		return t, fmt.Errorf("file is %d bytes; tool files over %d bytes are refused", len(src), maxSource)
	}
	if !utf8.Valid(src) {
		return t, fmt.Errorf("file is not UTF-8 text")
	}
	s := string(src)
	sig, err := verify(s)
	if err != nil {
		return t, err
	}
	t.Signature = sig
	mod, err := readModule(s)
	if err != nil {
		return t, fmt.Errorf("cannot read the Python source: %w", err)
	}
	var problems []string
	str := func(v string, required bool) string {
		toks, ok := mod.assigns[v]
		if !ok {
			if required {
				problems = append(problems, v+" is missing")
			}
			return ""
		}
		val, err := literal(toks)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", v, err))
			return ""
		}
		sv, ok := val.(string)
		if !ok {
			problems = append(problems, fmt.Sprintf("%s (line %d) must be a string, got %v", v, mod.lines[v], val))
			return ""
		}
		if required && strings.TrimSpace(sv) == "" {
			problems = append(problems, v+" is empty")
		}
		return strings.TrimSpace(sv)
	}
	t.Version = str("__version__", true)
	t.ToolType = str("__tool_type__", true)
	t.ExecutorID = str("__executor_id__", true)
	t.Category = str("__category__", false)
	if toks, ok := mod.assigns["__permissions__"]; ok {
		val, err := literal(toks)
		list, isList := val.([]any)
		if err != nil || !isList {
			problems = append(problems, fmt.Sprintf("__permissions__ (line %d) must be a list of strings", mod.lines["__permissions__"]))
		}
		for _, p := range list {
			ps, ok := p.(string)
			if !ok || strings.TrimSpace(ps) == "" {
				problems = append(problems, fmt.Sprintf("__permissions__ (line %d): %v is not a permission name", mod.lines["__permissions__"], p))
				continue
			}
			t.Permissions = append(t.Permissions, ps)
		}
	}
	if t.ToolType == "api" && !slices.Contains(t.Permissions, "net") {
		t.Permissions = append(t.Permissions, "net")
	}
	if t.Version != "" && !semver.MatchString(t.Version) {
		problems = append(problems, fmt.Sprintf("__version__ %q is not a semantic version (MAJOR.MINOR.PATCH, e.g. 1.2.0)", t.Version))
	}
	if t.ToolType != "" && !slices.Contains(ToolTypes, t.ToolType) {
		problems = append(problems, fmt.Sprintf("__tool_type__ %q is not a known tool type (%s)", t.ToolType, strings.Join(ToolTypes, ", ")))
	}
	if t.ExecutorID == name {
		problems = append(problems, fmt.Sprintf("__executor_id__ %q names the tool itself", t.ExecutorID))
	}
	if !mod.hasDoc || strings.TrimSpace(mod.doc) == "" {
		problems = append(problems, "no module docstring: the tool's description comes from it")
	} else {
		desc, secs := splitDoc(cleandoc(mod.doc))
		t.Description = description(desc)
		if t.Description == "" {
			problems = append(problems, "the module docstring has no description before its sections")
		}
		for _, sec := range secs {
			if !isConfigSection(sec.title) {
				continue
			}
			if t.Parameters != nil {
				problems = append(problems, "the docstring has two Config Schema sections")
				break
			}
			p, err := configSchema(sec.body)
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			t.Parameters = p
		}
	}
	if len(problems) > 0 {
		return t, fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	if t.Parameters == nil {
		t.Parameters = map[string]any{"type": "object", "properties": map[string]any{}}
	}
	props, ok := t.Parameters["properties"].(map[string]any)
	if !ok {
		props = map[string]any{}
		t.Parameters["properties"] = props
	}
	if _, taken := props[ScriptParam]; taken {
		return t, fmt.Errorf("parameter name %q is reserved: it carries the tool's file to its runtime", ScriptParam)
	}
	if typ, _ := t.Parameters["type"].(string); typ != "object" {
		return t, fmt.Errorf("the Config Schema must describe an object of parameters; its type is %v", t.Parameters["type"])
	}
	props[ScriptParam] = map[string]any{"type": "string", "const": path, "default": path,
		"description": "the tool's source file, passed to its runtime (fixed)"}
	raw, err := json.Marshal(t.Parameters)
	if err != nil {
		return t, fmt.Errorf("the Config Schema: %w", err)
	}
	if _, err := schemas.CompileParams(name, raw); err != nil {
		return t, fmt.Errorf("the Config Schema: %w", err)
	}
	return t, nil
}

// ParametersJSON is the parameter schema as JSON.
func (t Tool) ParametersJSON() (json.RawMessage, error) {
	return json.Marshal(t.Parameters)
}
