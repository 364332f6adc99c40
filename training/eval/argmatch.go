package eval

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// ArgCounts are the key/value pairs of predicted calls against gold calls:
// a pair is right when the key is in both and the values are equal after
// normalisation (see SameValue).
type ArgCounts struct {
	TP, FP, FN int
}

// Add sums two counts.
func (c ArgCounts) Add(o ArgCounts) ArgCounts {
	return ArgCounts{c.TP + o.TP, c.FP + o.FP, c.FN + o.FN}
}

// F1 is the harmonic mean of pair precision and recall; 1 when both sides
// are empty (nothing to get wrong).
func (c ArgCounts) F1() float64 {
	if c.TP+c.FP+c.FN == 0 {
		return 1
	}
	return 2 * float64(c.TP) / float64(2*c.TP+c.FP+c.FN)
}

// Precision of the predicted pairs.
func (c ArgCounts) Precision() float64 {
	if c.TP+c.FP == 0 {
		return 0
	}
	return float64(c.TP) / float64(c.TP+c.FP)
}

// Recall of the gold pairs.
func (c ArgCounts) Recall() float64 {
	if c.TP+c.FN == 0 {
		return 0
	}
	return float64(c.TP) / float64(c.TP+c.FN)
}

// CompareArgs counts the pairs of one predicted call against its gold call.
// A key whose value is wrong is both a false positive and a false negative.
func CompareArgs(pred, gold map[string]any) ArgCounts {
	var c ArgCounts
	for k, gv := range gold {
		pv, ok := pred[k]
		switch {
		case ok && SameValue(pv, gv):
			c.TP++
		case ok:
			c.FP++
			c.FN++
		default:
			c.FN++
		}
	}
	for k := range pred {
		if _, ok := gold[k]; !ok {
			c.FP++
		}
	}
	return c
}

// ExactArgs reports whether pred has exactly gold's keys, each with an
// equal value.
func ExactArgs(pred, gold map[string]any) bool {
	c := CompareArgs(pred, gold)
	return c.FP == 0 && c.FN == 0
}

// SameValue compares two argument values the way a person would: strings
// after trimming and ignoring case, numbers by value whether written as
// numbers or strings ("19.0" equals 19), booleans likewise ("True" equals
// true), lists item by item in order, objects key by key.
func SameValue(a, b any) bool {
	return canonical(a) == canonical(b)
}

// canonical is a value's normal form as a string.
func canonical(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return number(x)
	case float32:
		return number(float64(x))
	case int:
		return number(float64(x))
	case int64:
		return number(float64(x))
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return number(f)
		}
		return string(x)
	case string:
		s := strings.ToLower(strings.TrimSpace(x))
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return number(f)
		}
		if s == "true" || s == "false" {
			return s
		}
		return "s:" + s
	case []any:
		parts := make([]string, len(x))
		for i, it := range x {
			parts[i] = canonical(it)
		}
		b, _ := json.Marshal(parts)
		return "a:" + string(b)
	case map[string]any:
		m := make(map[string]string, len(x))
		for k, it := range x {
			m[strings.ToLower(strings.TrimSpace(k))] = canonical(it)
		}
		b, _ := json.Marshal(m) // sorted keys
		return "o:" + string(b)
	}
	// Any other shape (typed slices, structs): through JSON, then as above.
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	var back any
	if json.Unmarshal(b, &back) != nil {
		return "?"
	}
	return canonical(back)
}

func number(f float64) string {
	return "n:" + strconv.FormatFloat(f, 'g', -1, 64)
}
