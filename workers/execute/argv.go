package execute

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolyard/toolyard/schemas"
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
		parts, err := schemas.SplitTemplate(el)
		if err != nil {
			return nil, badCall(ErrUnsupported, "tool %s: argv[%d] %q: %w", toolID, i, el, err)
		}
		if len(parts) == 1 && parts[0].Name != "" {
			name := parts[0].Name
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
			if p.Name == "" {
				b.WriteString(p.Literal)
				continue
			}
			v, ok := params[p.Name]
			if !ok || v == nil {
				if err := absent(toolID, p.Name, info); err != nil {
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
