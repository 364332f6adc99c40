package schemas

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ParamSchema is a tool's compiled parameter schema.
type ParamSchema struct {
	sch *jsonschema.Schema
}

// CompileParams compiles a manifest's parameters (a JSON Schema object
// schema). An empty document accepts any object.
func CompileParams(toolID string, raw json.RawMessage) (*ParamSchema, error) {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		raw = json.RawMessage(`{"type":"object"}`)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("tool %s: parameters are not valid JSON: %w", toolID, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "toolyard://tools/" + toolID + "/parameters.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("tool %s: parameters: %w", toolID, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("tool %s: parameters are not a valid JSON Schema: %w", toolID, err)
	}
	return &ParamSchema{sch: sch}, nil
}

// Validate checks arguments against the schema. The error lists every problem
// with the argument it concerns.
func (p *ParamSchema) Validate(args map[string]any) error {
	if args == nil {
		args = map[string]any{}
	}
	var inst any = args
	if !validatorShaped(args) {
		var err error
		if inst, err = jsonShaped(args); err != nil {
			return err
		}
	}
	return p.check(inst)
}

// jsonShaped round-trips args through JSON so Go values (typed slices,
// structs) take the shapes the validator expects.
func jsonShaped(args map[string]any) (any, error) {
	data, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("arguments cannot be encoded: %w", err)
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(data))
}

func (p *ParamSchema) check(inst any) error {
	if err := p.sch.Validate(inst); err != nil {
		return fmt.Errorf("%s", strings.Join(problems(err), "; "))
	}
	return nil
}

// ValidateManifest checks a manifest against the registry contract and
// compiles its parameter schema, so a tool that could never be called is
// refused when it is registered rather than when it is used.
func ValidateManifest(raw []byte) (Manifest, error) {
	m, err := Decode[Manifest](KindManifest, raw)
	if err != nil {
		return m, err
	}
	if _, err := CompileParams(m.ID, m.Parameters); err != nil {
		return m, err
	}
	if err := checkTemplates(m); err != nil {
		return m, err
	}
	if m.Name == "" {
		m.Name = m.ID
	}
	if m.Type == "" {
		m.Type = "tool"
	}
	return m, nil
}
