package resolve

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/toolyard/toolyard/workers/internal/money"
)

// coerce converts a value to a property's type. Strings come from intent
// text and are parsed; other values (schema defaults) are only normalised
// (integral float64 → int64). The error says what was expected.
func coerce(p *property, v any) (any, error) {
	s, isText := v.(string)
	if !isText {
		return normalizeValue(p, v), nil
	}
	if len(p.enum) > 0 {
		return enumValue(p, s)
	}
	switch p.typ {
	case "integer":
		f, ok := parseNumber(s)
		if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return nil, fmt.Errorf("%q is not an integer", s)
		}
		return int64(f), nil
	case "number":
		f, ok := parseNumber(s)
		if !ok {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		return f, nil
	case "boolean":
		b, ok := parseBool(s)
		if !ok {
			return nil, fmt.Errorf("%q is not a yes/no value (use true/false, yes/no or on/off)", s)
		}
		return b, nil
	case "array":
		return parseList(p, s)
	case "object":
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil || m == nil {
			return nil, fmt.Errorf("%q is not a JSON object", s)
		}
		return m, nil
	case "null":
		if strings.EqualFold(strings.TrimSpace(s), "null") {
			return nil, nil
		}
		return nil, fmt.Errorf("%q is not null", s)
	}
	return s, nil
}

func normalizeValue(p *property, v any) any {
	switch p.typ {
	case "integer":
		if f, ok := v.(float64); ok && f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
			return int64(f)
		}
	case "array":
		if items, ok := v.([]any); ok && p.items != nil {
			out := make([]any, len(items))
			for i, it := range items {
				out[i] = normalizeValue(p.items, it)
			}
			return out
		}
	}
	return v
}

// enumValue picks the enum member a text names, ignoring case; the schema's
// own spelling is what the call carries.
func enumValue(p *property, s string) (any, error) {
	t := strings.TrimSpace(s)
	for _, e := range p.enum {
		if strings.EqualFold(displayEnum(e), t) {
			return normalizeValue(p, e), nil
		}
	}
	if e, ok := enumSynonym(p.enum, t); ok {
		return normalizeValue(p, e), nil
	}
	names := make([]string, len(p.enum))
	for i, e := range p.enum {
		names[i] = displayEnum(e)
	}
	return nil, fmt.Errorf("%q is not one of %s", s, strings.Join(names, ", "))
}

func displayEnum(e any) string {
	switch v := e.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case nil:
		return "null"
	}
	b, _ := json.Marshal(e)
	return string(b)
}

// amountScales are the suffixes an amount of money is written short with.
var amountScales = []struct {
	suffix string
	times  float64
}{{"k", 1e3}, {"K", 1e3}, {"m", 1e6}, {"M", 1e6}, {"bn", 1e9}}

// scaledAmount reads an amount of money written short, with its currency
// sign: "$250k", "€1.2m", "£3bn". Without the sign "10k" may be a run's
// length, and is not read.
func scaledAmount(s string) (float64, bool) {
	bare := strings.TrimLeft(s, money.SignRunes)
	if bare == s {
		return 0, false
	}
	for _, sc := range amountScales {
		if n, ok := strings.CutSuffix(bare, sc.suffix); ok && n != "" {
			if v, ok := parseNumber(n); ok {
				return v * sc.times, true
			}
		}
	}
	return 0, false
}

// parseNumber accepts plain decimals with an optional sign, fraction and
// exponent, thousands separators in the English style (1,000,000.5), and
// a leading currency sign or trailing percent sign.
// It refuses what strconv would also take but no one means in prose: hex,
// inf, nan, underscores.
func parseNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if v, ok := scaledAmount(s); ok {
		return v, true
	}
	// A currency sign or a percent sign says what the number counts, not
	// what it is: "$19.5", "€1,000", "39.2%".
	s = strings.TrimSuffix(strings.TrimLeft(s, money.SignRunes), "%")
	if strings.ContainsRune(s, ',') {
		var ok bool
		if s, ok = dropThousands(s); !ok {
			return 0, false
		}
	}
	digits := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' || c == 'e' || c == 'E':
		case (c == '+' || c == '-') && (i == 0 || s[i-1] == 'e' || s[i-1] == 'E'):
		default:
			return 0, false
		}
	}
	if digits == 0 {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// dropThousands removes thousands separators when every group after the
// first has exactly three digits, so "1,5" (a decimal comma, or a list) is
// not read as 15.
func dropThousands(s string) (string, bool) {
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i:]
	}
	sign := ""
	if intPart != "" && (intPart[0] == '-' || intPart[0] == '+') {
		sign, intPart = intPart[:1], intPart[1:]
	}
	groups := strings.Split(intPart, ",")
	if len(groups[0]) == 0 || len(groups[0]) > 3 {
		return "", false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 {
			return "", false
		}
	}
	return sign + strings.Join(groups, "") + frac, true
}

func parseBool(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "yes", "y", "on", "1":
		return true, true
	case "false", "no", "n", "off", "0":
		return false, true
	}
	return false, false
}

// parseList reads a JSON array or a comma-separated list, coercing each
// item to the item schema.
func parseList(p *property, s string) (any, error) {
	t := strings.TrimSpace(s)
	var raw []any
	if strings.HasPrefix(t, "[") {
		if err := json.Unmarshal([]byte(t), &raw); err != nil {
			return nil, fmt.Errorf("%q is not a JSON array or a comma-separated list", s)
		}
	} else {
		for _, part := range strings.Split(t, ",") {
			part = strings.TrimSpace(part)
			if len(part) >= 2 && (part[0] == '"' || part[0] == '\'') && part[len(part)-1] == part[0] {
				part = part[1 : len(part)-1]
			}
			if part != "" {
				raw = append(raw, part)
			}
		}
	}
	out := make([]any, 0, len(raw))
	item := p.items
	if item == nil {
		item = &property{name: p.name}
	}
	for _, r := range raw {
		v, err := coerce(item, r)
		if err != nil {
			return nil, fmt.Errorf("item %w", err)
		}
		out = append(out, v)
	}
	return out, nil
}
