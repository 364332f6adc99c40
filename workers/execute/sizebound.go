package execute

import "encoding/json"

// jsonSizeAtMost reports whether v, a plain JSON value (maps, slices,
// strings, float64, bool, nil and json.Number, as builtins and decoded
// outputs are), encodes to at most limit bytes, without encoding it: it
// adds up an upper bound of each part's encoding (six bytes for every byte
// of a string, the longest escape json.Marshal writes for one). false
// means "not known to fit": too big, or a value of another kind.
func jsonSizeAtMost(v any, limit int) bool {
	n := 0
	return sizeBound(v, &n, limit)
}

// maxNumberBytes bounds a float64's encoding ("-1.2345678901234567e-308").
const maxNumberBytes = 32

func sizeBound(v any, n *int, limit int) bool {
	switch x := v.(type) {
	case nil:
		*n += 4
	case bool:
		*n += 5
	case float64:
		*n += maxNumberBytes
	case json.Number:
		*n += len(x)
	case string:
		*n += 2 + 6*len(x)
	case map[string]any:
		*n += 2
		for k, e := range x {
			*n += 2 + 6*len(k) + 2 // quotes, colon, comma
			if *n > limit || !sizeBound(e, n, limit) {
				return false
			}
		}
	case []any:
		*n += 2
		for _, e := range x {
			*n++ // comma
			if *n > limit || !sizeBound(e, n, limit) {
				return false
			}
		}
	default:
		return false
	}
	return *n <= limit
}
