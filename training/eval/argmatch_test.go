package eval

import (
	"encoding/json"
	"testing"
)

func TestSameValue(t *testing.T) {
	tests := []struct {
		name string
		a, b any
		want bool
	}{
		{"trimmed, case-insensitive", "  New York ", "new york", true},
		{"different strings", "Paris", "London", false},
		{"number written as string", "19.0", 19.0, true},
		{"int64 and float", int64(61), "61", true},
		{"json number", json.Number("0.5"), 0.5, true},
		{"numbers differ", "19.5", 19.0, false},
		{"bool and string", true, "True", true},
		{"bool differs", false, "true", false},
		{"lists in order", []any{"a", int64(1)}, []any{"A", "1"}, true},
		{"lists out of order", []any{"a", "b"}, []any{"b", "a"}, false},
		{"objects by key", map[string]any{"K": "v", "n": 2.0}, map[string]any{"k": "V", "n": "2"}, true},
		{"object vs string", map[string]any{"k": "v"}, "k", false},
		{"null", nil, nil, true},
		{"null vs empty string", nil, "", false},
		{"string that is not a number", "1,000", 1000.0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SameValue(tt.a, tt.b); got != tt.want {
				t.Errorf("SameValue(%#v, %#v) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

func TestCompareArgs(t *testing.T) {
	tests := []struct {
		name       string
		pred, gold map[string]any
		want       ArgCounts
		exact      bool
		f1         float64
	}{
		{"all right", map[string]any{"a": "x", "b": int64(2)}, map[string]any{"a": "X", "b": "2"}, ArgCounts{TP: 2}, true, 1},
		{"one wrong value counts twice", map[string]any{"a": "x", "b": "y"}, map[string]any{"a": "x", "b": "z"}, ArgCounts{TP: 1, FP: 1, FN: 1}, false, 0.5},
		{"missing", map[string]any{"a": "x"}, map[string]any{"a": "x", "b": "z"}, ArgCounts{TP: 1, FN: 1}, false, 2.0 / 3},
		{"extra", map[string]any{"a": "x", "c": "q"}, map[string]any{"a": "x"}, ArgCounts{TP: 1, FP: 1}, false, 2.0 / 3},
		{"both empty", map[string]any{}, map[string]any{}, ArgCounts{}, true, 1},
		{"nil prediction", nil, map[string]any{"a": "x"}, ArgCounts{FN: 1}, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CompareArgs(tt.pred, tt.gold)
			if got != tt.want {
				t.Errorf("CompareArgs = %+v, want %+v", got, tt.want)
			}
			if e := ExactArgs(tt.pred, tt.gold); e != tt.exact {
				t.Errorf("ExactArgs = %v, want %v", e, tt.exact)
			}
			if f := got.F1(); !near(f, tt.f1) {
				t.Errorf("F1 = %v, want %v", f, tt.f1)
			}
		})
	}
}
