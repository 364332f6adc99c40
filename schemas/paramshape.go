package schemas

import (
	"math"
	"unicode/utf8"
)

// validatorShaped reports whether v already has the shapes the JSON Schema
// validator takes and would keep them through a JSON round trip: maps with
// string keys, []any, strings, finite numbers, booleans and nil, every
// string valid UTF-8 (encoding would replace invalid bytes). Decoded
// arguments almost always are, so Validate skips encoding and decoding
// them again; anything else (typed slices, structs, json.Number, NaN) goes
// through the round trip as before.
func validatorShaped(v any) bool {
	switch x := v.(type) {
	case nil, bool, int, int64, int32:
		return true
	case float64:
		return !math.IsNaN(x) && !math.IsInf(x, 0)
	case string:
		return utf8.ValidString(x)
	case map[string]any:
		if x == nil {
			return false // encodes as null, not as an object
		}
		for k, e := range x {
			if !utf8.ValidString(k) || !validatorShaped(e) {
				return false
			}
		}
		return true
	case []any:
		if x == nil {
			return false // encodes as null, not as an array
		}
		for _, e := range x {
			if !validatorShaped(e) {
				return false
			}
		}
		return true
	}
	return false
}
