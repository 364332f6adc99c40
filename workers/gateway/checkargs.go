package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// checked runs h only when the call's arguments fit the meta-tool's input
// schema. The SDK's raw tool handlers do not validate their input, so a
// call missing "text" (or naming it "intent") used to reach the service
// and come back in the service's terms ("text is empty: … {"session_id":
// …}"); the client is told instead, in the tool's own terms, which argument
// is missing or of the wrong type and which arguments the tool takes.
func checked(tool *mcp.Tool, h mcp.ToolHandler) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if err := checkArgs(tool, req.Params.Arguments); err != nil {
			return failed(err), nil
		}
		return h(ctx, req)
	}
}

// checkArgs checks raw against the meta-tools' schemas, which use only
// properties of type string, integer (with minimum and maximum) and
// object, and required. Written here rather than with the JSON Schema
// validator the registry uses (schemas.ParamSchema): these few fixed shapes
// are checked to answer an MCP client in its own terms — the argument's
// description, the arguments the tool takes, a misnamed one beside the
// missing one — which a validator's schema-path messages do not say.
func checkArgs(tool *mcp.Tool, raw json.RawMessage) error {
	schema, _ := tool.InputSchema.(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	var got map[string]any
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &got); err != nil {
			return fmt.Errorf("%s: the arguments must be a JSON object (%v); it takes %s", tool.Name, err, takes(schema))
		}
	}
	var problems []string
	required, _ := schema["required"].([]string)
	for _, name := range required {
		if v, ok := got[name]; !ok || v == nil || v == "" {
			problems = append(problems, fmt.Sprintf("missing argument %q (%s)", name, describe(props[name])))
		}
	}
	var unknown []string
	for _, name := range slices.Sorted(maps.Keys(got)) {
		p, known := props[name].(map[string]any)
		if !known {
			unknown = append(unknown, fmt.Sprintf("unknown argument %q", name))
			continue
		}
		if msg := wrongType(p, got[name]); msg != "" {
			problems = append(problems, fmt.Sprintf("argument %q %s", name, msg))
		}
	}
	if len(problems) == 0 {
		// An extra argument alone is tolerated (clients add their own);
		// beside a problem it is likely the misnamed one.
		return nil
	}
	problems = append(problems, unknown...)
	return fmt.Errorf("%s: %s; it takes %s", tool.Name, strings.Join(problems, ", "), takes(schema))
}

// wrongType says how v does not fit the property schema p ("" when it does).
func wrongType(p map[string]any, v any) string {
	if v == nil {
		return ""
	}
	switch p["type"] {
	case "string":
		if _, ok := v.(string); !ok {
			return "must be a string, got " + jsonKind(v)
		}
	case "object":
		if _, ok := v.(map[string]any); !ok {
			return "must be an object, got " + jsonKind(v)
		}
	case "integer":
		n, ok := v.(float64)
		if !ok || n != math.Trunc(n) {
			return "must be an integer, got " + jsonKind(v)
		}
		if lo, ok := p["minimum"].(int); ok && n < float64(lo) {
			return fmt.Sprintf("must be at least %d, got %v", lo, n)
		}
		if hi, ok := p["maximum"].(int); ok && n > float64(hi) {
			return fmt.Sprintf("must be at most %d, got %v", hi, n)
		}
	}
	return ""
}

func jsonKind(v any) string {
	switch v := v.(type) {
	case string:
		return "a string"
	case float64:
		if v == math.Trunc(v) {
			return "a number"
		}
		return "a fractional number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "null"
}

// takes lists a schema's arguments, required ones marked.
func takes(schema map[string]any) string {
	props, _ := schema["properties"].(map[string]any)
	required, _ := schema["required"].([]string)
	var out []string
	for _, name := range slices.Sorted(maps.Keys(props)) {
		s := name
		if slices.Contains(required, name) {
			s += " (required)"
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return "no arguments"
	}
	return strings.Join(out, ", ")
}

func describe(p any) string {
	m, _ := p.(map[string]any)
	d, _ := m["description"].(string)
	return d
}
