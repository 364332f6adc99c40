package join_test

import (
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/join"
	"github.com/toolyard/toolyard/workers/parse"
)

// Any output the parser accepts, with any inner output: substitution never
// panics, and either says nothing is left or yields a trimmed text whose
// spans hold exactly the inputs, normalized like the parser's text.
func FuzzSubstitute(f *testing.F) {
	f.Add("[TOOL: translate [TOOL: fetch the title] into French]", "Example Domain\n", 1000)
	f.Add("[TOOL: [TOOL: a] [TOOL: b]]", "", 10)
	f.Add("[TOOL: x [TOOL: y [TOOL: z] w] v]", "  multi\n line\toutput  ", 3)
	f.Add("[TOOL: sort [1, 2] by [TOOL: key `]` name]]", "ünïcödé ✓", 2)
	f.Fuzz(func(t *testing.T, text, output string, maxRunes int) {
		p, err := parse.New().Parse(schemas.AgentOutput{SessionID: "s", MessageID: "m", Text: text})
		if err != nil {
			return
		}
		for _, in := range p.Intents {
			if len(in.DependsOn) == 0 {
				continue
			}
			inputs := map[string]join.Input{}
			for _, d := range in.DependsOn {
				inputs[d] = join.Render(schemas.Result{Status: schemas.StatusExecuted, Output: &schemas.ToolOutput{Content: output}}, maxRunes)
			}
			got, err := join.Substitute(in, inputs)
			if err != nil {
				if !strings.Contains(err.Error(), "was empty") {
					t.Fatalf("intent %+v: %v", in, err)
				}
				continue
			}
			if got.Text == "" || got.Text != strings.Trim(got.Text, " ") || strings.Contains(got.Text, "  ") {
				t.Fatalf("text %q is empty, untrimmed or has a run of spaces", got.Text)
			}
			for _, n := range got.Nested {
				if n.Start < 0 || n.End > len(got.Text) || n.Start > n.End {
					t.Fatalf("span %+v outside %q", n, got.Text)
				}
				want := inputs[n.ID].Text
				if s := got.Text[n.Start:n.End]; s != want && s != strings.Trim(want, " ") {
					t.Fatalf("span %+v reads %q, want %q", n, s, want)
				}
			}
			if err := schemas.ValidateValue(schemas.KindIntent, got); err != nil {
				t.Fatalf("substituted intent breaks its contract: %v", err)
			}
		}
	})
}
