package execute

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// jsonSizeAtMost lets spill skip encoding an output: it must never say an
// output fits that does not.
func TestJSONSizeAtMost(t *testing.T) {
	tests := []struct {
		name  string
		v     any
		plain bool // a plain JSON value, whose bound is known
	}{
		{"nil", nil, true},
		{"bool", false, true},
		{"longest float", -math.SmallestNonzeroFloat64 * 1.2345678901234567, true},
		{"big float", -1.7976931348623157e308, true},
		{"number", json.Number("123456789012345678901234567890"), true},
		{"plain text", "hello, world", true},
		{"all escaped", strings.Repeat("<>&\x01\"\\", 50), true},
		{"invalid utf-8", "\xff\xfe\xfd", true},
		{"line separators", "\u2028\u2029", true},
		{"help-shaped", map[string]any{"id": "t/x", "text": strings.Repeat("<tool_call name=\"t/x\"> & ", 200),
			"parameters": []any{map[string]any{"name": "n", "required": true, "default": 3.5, "enum": []any{1.0, "a", nil, false}}},
			"empty":      map[string]any{}, "none": []any{}}, true},
		{"keys escaped", map[string]any{"<&>\x02": "x"}, true},
		{"struct", struct{ A string }{"x"}, false},
		{"typed slice", []string{"a"}, false},
		{"typed map", map[string]string{"a": "b"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := json.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if jsonSizeAtMost(tt.v, len(data)-1) {
				t.Errorf("said to fit in %d bytes, but encodes to %d: %s", len(data)-1, len(data), data)
			}
			if got := jsonSizeAtMost(tt.v, 1<<20); got != tt.plain {
				t.Errorf("fits in 1 MiB = %v, want %v", got, tt.plain)
			}
		})
	}
}
