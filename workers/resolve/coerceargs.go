package resolve

import (
	"fmt"
	"maps"

	"github.com/toolyard/toolyard/schemas"
)

// Coerce converts string arguments to the types m's schema declares for
// them, and leaves every other value as it is. A direct <tool_call> written
// as XML elements can only carry strings (<lines>20</lines>); this gives
// its arguments the types the schema asks for, by the same rules as
// intent text. It does not validate: a value that does not convert is an
// *InvalidError, anything else is left for validation to judge.
func Coerce(m schemas.Manifest, args map[string]any) (map[string]any, error) {
	s, err := schemaFor(m)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	var problems []string
	for name, v := range args {
		str, ok := v.(string)
		p := s.prop(name)
		if !ok || p == nil || (p.typ == "string" && len(p.enum) == 0) || p.typ == "" && len(p.enum) == 0 {
			continue
		}
		c, err := coerce(p, str)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v (expected %s)", name, err, expectation(p)))
			continue
		}
		if out == nil {
			out = maps.Clone(args)
		}
		out[name] = c
	}
	if len(problems) > 0 {
		return nil, &InvalidError{ToolID: m.ID, Problems: sortedCopy(problems), Args: args}
	}
	if out == nil {
		return args, nil
	}
	return out, nil
}
