package kiwi

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// literal evaluates a Python literal expression — what ast.literal_eval
// accepts, less bytes, complex numbers and sets: strings (adjacent ones
// concatenated), numbers, True/False/None, lists, tuples and dicts of
// literals. Anything else (a name, a call, an f-string) is an error that
// says so: metadata must be readable without running the module.
func literal(toks []token) (any, error) {
	p := &litParser{toks: toks}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if p.i < len(p.toks) {
		return nil, fmt.Errorf("line %d: unexpected %q after the value (only literals are read, nothing is evaluated)", p.toks[p.i].line, p.toks[p.i].text)
	}
	return v, nil
}

type litParser struct {
	toks []token
	i    int
}

func (p *litParser) peek() (token, bool) {
	if p.i >= len(p.toks) {
		return token{}, false
	}
	return p.toks[p.i], true
}

func (p *litParser) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("value nested deeper than %d", maxDepth)
	}
	t, ok := p.peek()
	if !ok {
		return nil, fmt.Errorf("missing value")
	}
	switch t.kind {
	case tokString:
		var b strings.Builder
		for {
			t, ok := p.peek()
			if !ok || t.kind != tokString {
				break
			}
			switch {
			case strings.ContainsAny(t.prefix, "ft"):
				return nil, fmt.Errorf("line %d: %s is an f-string, whose value is known only when the module runs", t.line, clipText(t.text))
			case strings.ContainsRune(t.prefix, 'b'):
				return nil, fmt.Errorf("line %d: %s is bytes, not text", t.line, clipText(t.text))
			}
			b.WriteString(t.str)
			p.i++
		}
		return b.String(), nil
	case tokNumber:
		p.i++
		return number(t)
	case tokName:
		p.i++
		switch t.text {
		case "True":
			return true, nil
		case "False":
			return false, nil
		case "None":
			return nil, nil
		}
		return nil, fmt.Errorf("line %d: %q is a name or an expression, not a literal (metadata is read without running the module)", t.line, t.text)
	case tokOp:
		switch t.text {
		case "-", "+":
			p.i++
			n, ok := p.peek()
			if !ok || n.kind != tokNumber {
				return nil, fmt.Errorf("line %d: %q must be followed by a number", t.line, t.text)
			}
			p.i++
			v, err := number(n)
			if err != nil || t.text == "+" {
				return v, err
			}
			switch x := v.(type) {
			case int64:
				return -x, nil
			case float64:
				return -x, nil
			}
		case "[":
			p.i++
			return p.sequence("]", depth)
		case "(":
			p.i++
			v, err := p.sequence(")", depth)
			if err != nil {
				return nil, err
			}
			// (x) is x; only a comma makes a tuple: (x,).
			if items := v.([]any); len(items) == 1 && p.toks[p.i-2].text != "," {
				return items[0], nil
			}
			return v, nil
		case "{":
			p.i++
			return p.dict(depth)
		}
	}
	return nil, fmt.Errorf("line %d: unexpected %q where a literal value belongs", t.line, t.text)
}

func (p *litParser) sequence(closer string, depth int) (any, error) {
	out := []any{}
	for {
		t, ok := p.peek()
		if !ok {
			return nil, fmt.Errorf("missing %q", closer)
		}
		if t.kind == tokOp && t.text == closer {
			p.i++
			return out, nil
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if err := p.separator(closer); err != nil {
			return nil, err
		}
	}
}

func (p *litParser) dict(depth int) (any, error) {
	out := map[string]any{}
	for {
		t, ok := p.peek()
		if !ok {
			return nil, fmt.Errorf("missing \"}\"")
		}
		if t.kind == tokOp && t.text == "}" {
			p.i++
			return out, nil
		}
		k, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		key, ok := k.(string)
		if !ok {
			return nil, fmt.Errorf("line %d: dict keys must be strings, got %v", t.line, k)
		}
		if c, ok := p.peek(); !ok || c.kind != tokOp || c.text != ":" {
			return nil, fmt.Errorf("line %d: expected \":\" after dict key %q (sets are not read)", t.line, key)
		}
		p.i++
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		out[key] = v
		if err := p.separator("}"); err != nil {
			return nil, err
		}
	}
}

// separator consumes a comma, or leaves the closer for the caller.
func (p *litParser) separator(closer string) error {
	t, ok := p.peek()
	switch {
	case !ok:
		return fmt.Errorf("missing %q", closer)
	case t.kind == tokOp && t.text == ",":
		p.i++
		return nil
	case t.kind == tokOp && t.text == closer:
		return nil
	}
	return fmt.Errorf("line %d: expected \",\" or %q, got %q", t.line, closer, t.text)
}

// number reads a Python int or float literal.
func number(t token) (any, error) {
	s := strings.ReplaceAll(t.text, "_", "")
	l := strings.ToLower(s)
	if strings.HasSuffix(l, "j") {
		return nil, fmt.Errorf("line %d: complex number %s", t.line, t.text)
	}
	base := 10
	switch {
	case strings.HasPrefix(l, "0x"):
		base, s = 16, s[2:]
	case strings.HasPrefix(l, "0o"):
		base, s = 8, s[2:]
	case strings.HasPrefix(l, "0b"):
		base, s = 2, s[2:]
	}
	if base != 10 || !strings.ContainsAny(l, ".e") {
		n, err := strconv.ParseInt(s, base, 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: number %s: %w", t.line, t.text, err)
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, fmt.Errorf("line %d: number %s is not a finite float", t.line, t.text)
	}
	return f, nil
}

func clipText(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
