package kiwi

import (
	"regexp"
	"strings"
)

// cleandoc normalises a docstring as Python's inspect.cleandoc does: tabs
// expanded, the first line's leading space and the other lines' common
// indentation removed, blank lines at both ends dropped.
func cleandoc(doc string) []string {
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(doc, "\r\n", "\n"), "\t", "        "), "\n")
	indent := -1
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	out := make([]string, len(lines))
	out[0] = strings.TrimSpace(lines[0])
	for i, l := range lines[1:] {
		if indent > 0 && len(l) >= indent {
			l = l[indent:]
		}
		out[i+1] = strings.TrimRight(l, " ")
	}
	for len(out) > 0 && strings.TrimSpace(out[0]) == "" {
		out = out[1:]
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	return out
}

// sectionHeader matches a docstring section heading alone on its line:
// "Config Schema:", "Args:", "Returns:", "Example usage:" (Google style),
// or a heading underlined with dashes (numpydoc) — see isUnderline. A
// heading is not indented (after cleandoc), so an indented "Example:" inside
// a section's body does not end the section.
var sectionHeader = regexp.MustCompile(`^([A-Z][A-Za-z]*(?: [A-Za-z]+){0,3}):\s*$`)

func isUnderline(l string) bool {
	t := strings.TrimSpace(l)
	return len(t) >= 3 && strings.Trim(t, "-=") == ""
}

// section is a docstring section: its heading and body lines.
type section struct {
	title string
	line  int // index of the heading in the cleaned docstring
	body  []string
}

// splitDoc separates the description (the text before the first section)
// from the sections.
func splitDoc(lines []string) (desc []string, secs []section) {
	cur := -1
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		title := ""
		if m := sectionHeader.FindStringSubmatch(l); m != nil {
			title = m[1]
		} else if i+1 < len(lines) && isUnderline(lines[i+1]) && strings.TrimSpace(l) != "" && l[0] != ' ' && !strings.Contains(l, "(") {
			title = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l), ":"))
			i++
		}
		if title != "" {
			secs = append(secs, section{title: title, line: i})
			cur = len(secs) - 1
			continue
		}
		if cur < 0 {
			desc = append(desc, l)
		} else {
			secs[cur].body = append(secs[cur].body, l)
		}
	}
	return desc, secs
}

// description is the description lines as one paragraph per blank-line
// separated block, each on one line.
func description(lines []string) string {
	var paras []string
	var cur []string
	for _, l := range append(lines, "") {
		if strings.TrimSpace(l) == "" {
			if len(cur) > 0 {
				paras = append(paras, strings.Join(cur, " "))
				cur = nil
			}
			continue
		}
		cur = append(cur, strings.TrimSpace(l))
	}
	return strings.Join(paras, "\n\n")
}

// isConfigSection: "Config Schema", "Config schema", "Configuration Schema".
func isConfigSection(title string) bool {
	t := strings.ToLower(strings.Join(strings.Fields(title), " "))
	return t == "config schema" || t == "configuration schema" || t == "config"
}
