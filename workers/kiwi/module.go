package kiwi

import (
	"strings"
)

// module is what static reading finds at a Python module's top level.
type module struct {
	// doc is the module docstring: the first statement when it is a string.
	// When the module starts with assignments instead (kiwi's own examples
	// put the metadata first), a bare string statement among the leading
	// assignments and imports stands in for it.
	doc     string
	hasDoc  bool
	docLine int
	// assigns maps a top-level name to the tokens of its last assigned value.
	assigns map[string][]token
	lines   map[string]int
}

// readModule reads src's top-level statements.
func readModule(src string) (*module, error) {
	sts, err := statements(src)
	if err != nil {
		return nil, err
	}
	m := &module{assigns: map[string][]token{}, lines: map[string]int{}}
	preamble := true // only assignments, imports and strings so far
	for i, st := range sts {
		if !st.topLevel {
			continue
		}
		t := st.toks
		if isStringStmt(t) {
			if !m.hasDoc && (i == 0 || preamble) && allPlainStrings(t) {
				var b strings.Builder
				for _, s := range t {
					b.WriteString(s.str)
				}
				m.doc, m.hasDoc, m.docLine = b.String(), true, st.line
			}
			continue
		}
		if t[0].kind == tokName && (t[0].text == "import" || t[0].text == "from") {
			continue
		}
		name, value, ok := assignment(t)
		if !ok {
			preamble = false
			continue
		}
		m.assigns[name], m.lines[name] = value, st.line
	}
	return m, nil
}

func isStringStmt(t []token) bool {
	for _, x := range t {
		if x.kind != tokString {
			return false
		}
	}
	return len(t) > 0
}

func allPlainStrings(t []token) bool {
	for _, x := range t {
		if strings.ContainsAny(x.prefix, "bft") {
			return false
		}
	}
	return true
}

// assignment recognises NAME = value and NAME: annotation = value (the
// first target of a chained a = b = value).
func assignment(t []token) (string, []token, bool) {
	if len(t) < 3 || t[0].kind != tokName || t[1].kind != tokOp {
		return "", nil, false
	}
	switch t[1].text {
	case "=":
		rest := t[2:]
		// a = b = value: the value is after the last top-level "=".
		depth := 0
		last := -1
		for i, x := range rest {
			if x.kind != tokOp {
				continue
			}
			switch x.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			case "=":
				if depth == 0 {
					last = i
				}
			}
		}
		if last >= 0 {
			rest = rest[last+1:]
		}
		return t[0].text, rest, len(rest) > 0
	case ":":
		depth := 0
		for i := 2; i < len(t); i++ {
			x := t[i]
			if x.kind != tokOp {
				continue
			}
			switch x.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			case "=":
				if depth == 0 && i+1 < len(t) {
					return t[0].text, t[i+1:], true
				}
			}
		}
	}
	return "", nil, false
}
