package schemas

import (
	"encoding/json"
	"math"
	"testing"
)

// Validate checks decoded arguments as they are instead of encoding and
// decoding them first: every verdict, and every message, must be the one
// the round trip gives.
func TestValidateWithoutRoundTrip(t *testing.T) {
	ps, err := CompileParams("t/shapes", json.RawMessage(`{"type":"object","required":["name"],"additionalProperties":false,"properties":{`+
		`"name":{"type":"string","minLength":2,"maxLength":5,"pattern":"^[a-z]+$"},`+
		`"n":{"type":"integer","minimum":1,"maximum":10},`+
		`"ratio":{"type":"number","multipleOf":0.1,"exclusiveMaximum":1},`+
		`"tags":{"type":"array","items":{"type":"string"},"uniqueItems":true,"maxItems":3},`+
		`"opts":{"type":"object","properties":{"deep":{"type":"boolean"}},"required":["deep"]},`+
		`"mode":{"enum":["a",1,null,{"k":[1]}]},`+
		`"c":{"const":2.5},`+
		`"any":{}}}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   map[string]any
		shaped bool // checked without the round trip
	}{
		{"valid", map[string]any{"name": "abc", "n": 3.0, "ratio": 0.3, "tags": []any{"x", "y"}, "opts": map[string]any{"deep": true}, "mode": "a", "c": 2.5}, true},
		{"integer as int64", map[string]any{"name": "abc", "n": int64(4)}, true},
		{"integer as int", map[string]any{"name": "abc", "n": 11}, true},
		{"not an integer", map[string]any{"name": "abc", "n": 3.5}, true},
		{"too big", map[string]any{"name": "abc", "n": 1e21}, true},
		{"multipleOf", map[string]any{"name": "abc", "ratio": 0.35}, true},
		{"exclusiveMaximum", map[string]any{"name": "abc", "ratio": 1.0}, true},
		{"missing", map[string]any{"n": 1.0}, true},
		{"wrong types everywhere", map[string]any{"name": 5.0, "n": "3", "tags": "x", "opts": []any{}, "any": nil}, true},
		{"pattern and length", map[string]any{"name": "ABCDEFG"}, true},
		{"duplicate items", map[string]any{"name": "abc", "tags": []any{"x", "x"}}, true},
		{"too many items", map[string]any{"name": "abc", "tags": []any{"a", "b", "c", "d"}}, true},
		{"nested required", map[string]any{"name": "abc", "opts": map[string]any{}}, true},
		{"enum object", map[string]any{"name": "abc", "mode": map[string]any{"k": []any{1.0}}}, true},
		{"enum miss", map[string]any{"name": "abc", "mode": 2.0}, true},
		{"const miss", map[string]any{"name": "abc", "c": 2.0}, true},
		{"unknown property", map[string]any{"name": "abc", "extra": true}, true},
		{"unicode", map[string]any{"name": "äö"}, true},
		// Round-tripped, as before:
		{"invalid utf-8", map[string]any{"name": "a\xffb"}, false},
		{"typed slice", map[string]any{"name": "abc", "tags": []string{"x", "x"}}, false},
		{"nil map", map[string]any{"name": "abc", "opts": map[string]any(nil)}, false},
		{"nil slice", map[string]any{"name": "abc", "tags": []any(nil)}, false},
		{"json.Number", map[string]any{"name": "abc", "n": json.Number("12")}, false},
		{"uint", map[string]any{"name": "abc", "n": uint(2)}, false},
		{"NaN", map[string]any{"name": "abc", "ratio": math.NaN()}, false},
		{"struct", map[string]any{"name": "abc", "opts": struct{ Deep bool }{true}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := validatorShaped(tt.args); got != tt.shaped {
				t.Errorf("validatorShaped = %v, want %v", got, tt.shaped)
			}
			var want error
			if inst, err := jsonShaped(tt.args); err != nil {
				want = err
			} else {
				want = ps.check(inst)
			}
			got := ps.Validate(tt.args)
			if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
				t.Errorf("Validate = %v, the round trip gives %v", got, want)
			}
		})
	}
}
