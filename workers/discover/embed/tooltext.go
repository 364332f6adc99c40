package embed

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// TextFields says which manifest fields beside the name, id and
// description go into a tool's text (ToolTextWith).
type TextFields struct {
	Keywords, ParamNames, ParamDescs, Examples bool
}

// DefaultTextFields is what ToolText embeds; the measurements behind it
// are in README.md ('toolyard eval embedder --all').
var DefaultTextFields = TextFields{Keywords: true, ParamNames: true, ParamDescs: true, Examples: true}

// ToolText is the text embedded for a tool: its name in plain words
// (getForensicAnalysis → get forensic analysis, which any embedder reads
// better than the identifier), the id when it says more than the name, the
// description, the keywords, the parameters (names and descriptions) and
// the examples. Each field measurably helps or is neutral (README.md):
// parameter descriptions add the most, as they name the things a tool
// acts on.
func ToolText(m schemas.Manifest) string { return ToolTextWith(m, DefaultTextFields) }

// ToolTexter is an embedder that reads a tool from a text of its own
// rather than ToolText. Its ID must name that text, since cached vectors
// are keyed by embedder and manifest, not by text.
type ToolTexter interface {
	ToolText(m schemas.Manifest) string
}

// ToolTextWith is ToolText with the fields f names: the other texts the
// measurements compare, and USE-lite's (name, id and description only).
func ToolTextWith(m schemas.Manifest, tf TextFields) string {
	var b strings.Builder
	name := m.Name
	if name == "" {
		name = m.ID
	}
	b.WriteString(words(name))
	if m.ID != "" && m.ID != name {
		b.WriteString(" (")
		b.WriteString(words(m.ID))
		b.WriteString(")")
	}
	sentence(&b, "", m.Description)
	if tf.Keywords && len(m.Keywords) > 0 {
		sentence(&b, "Keywords: ", strings.Join(m.Keywords, ", "))
	}
	if tf.ParamNames || tf.ParamDescs {
		var ps []string
		for _, p := range paramsOf(m.Parameters) {
			s := ""
			if tf.ParamNames {
				s = words(p.name)
			}
			if tf.ParamDescs && p.desc != "" {
				s = strings.TrimSpace(s + ": " + p.desc)
			}
			ps = append(ps, s)
		}
		if len(ps) > 0 {
			sentence(&b, "Parameters: ", strings.Join(ps, "; "))
		}
	}
	if tf.Examples && len(m.Examples) > 0 {
		sentence(&b, "Examples: ", strings.Join(m.Examples, "; "))
	}
	return b.String()
}

func sentence(b *strings.Builder, label, s string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return
	}
	if b.Len() > 0 {
		b.WriteString(". ")
	}
	b.WriteString(label)
	b.WriteString(strings.TrimRight(s, ". "))
}

// words turns an identifier into lower-case words split the way the local
// embedder splits them.
func words(id string) string {
	var b strings.Builder
	var ends []int
	var low []byte
	for i := 0; ; {
		start, end := nextRun(id, i)
		if start < 0 {
			break
		}
		i = end
		run := id[start:end]
		from := 0
		ends = caseSplit(run, ends[:0])
		for _, to := range ends {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			low = appendLower(low[:0], run[from:to])
			b.Write(low)
			from = to
		}
	}
	return b.String()
}

type param struct{ name, desc string }

// paramsOf lists the top-level properties of a JSON Schema object, sorted by
// name so the text does not depend on the order the schema was written in.
func paramsOf(schema json.RawMessage) []param {
	if len(schema) == 0 {
		return nil
	}
	var s struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	out := make([]param, 0, len(s.Properties))
	for name, p := range s.Properties {
		out = append(out, param{name, p.Description})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}
