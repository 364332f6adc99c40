package parse_test

import (
	"strings"
	"testing"

	"github.com/toolyard/toolyard/workers/parse"
)

func TestCode(t *testing.T) {
	const call = `<tool_call name="t"/>`
	tests := []struct {
		name string
		in   string
		want []string // by default
		all  []string // WithCodeIntents(true)
	}{
		{"fence", "```\n[TOOL: a]\n```\n[TOOL: b]", []string{`0 "b"`}, []string{`0 "a"`, `1 "b"`}},
		{"fence with info", "```go\n[TOOL: a]\n```\n", nil, []string{`0 "a"`}},
		{"tilde fence", "~~~\n[TOOL: a]\n~~~\n[TOOL: b]", []string{`0 "b"`}, []string{`0 "a"`, `1 "b"`}},
		{"tilde info may hold backticks", "~~~ `x`\n[TOOL: a]\n~~~", nil, []string{`0 "a"`}},
		{"backtick info may not", "```x`\n[TOOL: a]\n```", []string{`0 "a"`}, []string{`0 "a"`}},
		{"inline triple backticks", "```[TOOL: a]``` [TOOL: b]", []string{`0 "b"`}, []string{`0 "a"`, `1 "b"`}},
		{"unclosed fence runs to the end", "x\n```\n[TOOL: a]\n\n[TOOL: b]", nil, []string{`0 "a"`, `1 "b"`}},
		{"longer fence needs a longer closer", "````\n```\n[TOOL: a]\n````\n[TOOL: b]", []string{`0 "b"`}, nil},
		{"closer of the other character does not close", "```\n~~~\n[TOOL: a]\n```\n[TOOL: b]", []string{`0 "b"`}, nil},
		{"closer with text after does not close", "```\n``` x\n[TOOL: a]\n```\n[TOOL: b]", []string{`0 "b"`}, nil},
		{"closer with trailing spaces closes", "```\n```  \t\r\n[TOOL: b]", []string{`0 "b"`}, nil},
		{"fence at the end without newline", "```\n[TOOL: a]\n```", nil, nil},
		{"indented fence", "1. step:\n    ```bash\n    [TOOL: a]\n    ```\n[TOOL: b]", []string{`0 "b"`}, nil},
		{"fence indented too far", strings.Repeat(" ", 17) + "```\n[TOOL: a]", []string{`0 "a"`}, nil},
		{"two backticks are not a fence", "``\n[TOOL: a]\n``", []string{`0 "a"`}, nil},
		{"fence must start its line", "x ```\n[TOOL: a]\n```", []string{`0 "a"`}, nil},
		{"CRLF fences", "```\r\n[TOOL: a]\r\n```\r\n[TOOL: b]\r\n", []string{`0 "b"`}, nil},
		{"fence interrupting a paragraph", "text\n```\n[TOOL: a]\n```", nil, nil},

		{"inline", "use `[TOOL: a]` like [TOOL: b]", []string{`0 "b"`}, []string{`0 "a"`, `1 "b"`}},
		{"double backticks", "``a ` [TOOL: x] ` b`` [TOOL: y]", []string{`0 "y"`}, nil},
		{"unmatched backtick is text", "the ` key, [TOOL: a]", []string{`0 "a"`}, []string{`0 "a"`}},
		{"unmatched run length", "`` [TOOL: a] ` [TOOL: b] ```", []string{`0 "a"`, `1 "b"`}, nil},
		{"span does not cross lines", "a `b\n[TOOL: c]` d", []string{`0 "c"`}, nil},
		{"many unmatched runs", "` `` ``` [TOOL: a] ````", []string{`0 "a"`}, nil},
		{"runs matched after unmatched", "` `` [TOOL: a] `` [TOOL: b] `", nil, nil},
		{"empty code", "`` [TOOL: a]", []string{`0 "a"`}, nil},

		{"code inside a marker", "[TOOL: grep for `]` in logs]", []string{"0 \"grep for `]` in logs\""}, nil},
		{"marker in code inside a marker", "[TOOL: explain `[TOOL: x]` please]", []string{"0 \"explain `[TOOL: x]` please\""}, nil},
		{"unmatched backtick inside a marker", "[TOOL: the ` key]", []string{"0 \"the ` key\""}, []string{"0 \"the ` key\""}},
		{"fence inside a marker cuts it", "[TOOL: a\n  ~~~\nb]", []string{"! unterminated@0"}, []string{`0 "a ~~~ b"`}},
		{"inline fence-like line inside a marker", "[TOOL: a\n```x``` b]", []string{"0 \"a ```x``` b\""}, nil},

		{"tool_call in a fence", "```xml\n" + call + "\n```", nil, []string{`0 call execute t {}`}},
		{"tool_call inline", "`" + call + "`", nil, []string{`0 call execute t {}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, all := range []bool{false, true} {
				p := parse.New(parse.WithCodeIntents(all))
				want := tt.want
				if all {
					if tt.all == nil {
						continue
					}
					want = tt.all
				}
				got := mustParse(t, p, tt.in)
				if d := describe(got); !sameLines(d, want) {
					t.Fatalf("WithCodeIntents(%v) Parse(%q)\n got %q\nwant %q", all, tt.in, d, want)
				}
				checkInvariants(t, tt.in, got, parse.DefaultContextChars)
				for _, size := range []int{1, 2, 5} {
					sameAsParse(t, p, tt.in, repeatSize(size, len(tt.in)))
				}
			}
		})
	}
}

// adversarialInputs are outputs that make a naive scanner quadratic:
// openers never closed, deep nesting, long runs of brackets, backticks and
// near misses of the markers.
func adversarialInputs() map[string]string {
	return map[string]string{
		"openers":          strings.Repeat("[TOOL:", 40000),
		"openers in lines": strings.Repeat("[TOOL: x\n", 25000),
		"deep nesting":     strings.Repeat("[TOOL: a ", 25000) + strings.Repeat("]", 25000),
		"brackets":         "[TOOL: " + strings.Repeat("[", 200000),
		"backtick runs":    backtickRuns(700, " x "),
		"runs in a marker": "[TOOL: " + backtickRuns(700, " [TOOL: x "),
		"backticks":        strings.Repeat("`", 200000),
		"near misses":      strings.Repeat("[TOO [TOOL <tool_cal ", 10000),
		"calls":            strings.Repeat("<tool_call ", 20000),
		"fences":           strings.Repeat("```\n", 50000),
		"tildes":           strings.Repeat("~", 200000),
		"pads":             strings.Repeat("["+strings.Repeat(" ", 16), 14000),
	}
}

// The adversarial inputs are parsed, or refused with a clear error (too
// many intents), and what is parsed keeps the parser's invariants; how
// fast (linear, a few hundred ns per byte at most) is
// BenchmarkAdversarial's to measure, not a timed test's.
func TestAdversarialInputsParse(t *testing.T) {
	p := parse.New()
	for name, in := range adversarialInputs() {
		t.Run(name, func(t *testing.T) {
			got, err := p.Parse(output(in))
			if err != nil {
				if !strings.Contains(err.Error(), "limit") {
					t.Fatalf("%d bytes: error %v, want a parse or a limit", len(in), err)
				}
				return
			}
			checkInvariants(t, in, got, parse.DefaultContextChars)
		})
	}
}

// BenchmarkAdversarial reports ns per byte of each adversarial input: a
// quadratic scan shows as ns/byte growing with the input.
func BenchmarkAdversarial(b *testing.B) {
	p := parse.New()
	for name, in := range adversarialInputs() {
		b.Run(name, func(b *testing.B) {
			out := output(in)
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				_, _ = p.Parse(out)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(in)), "ns/byte")
		})
	}
}

// backtickRuns is one line of backtick runs of lengths 1..n, none closed: the
// worst case of a naive search for closing runs.
func backtickRuns(n int, sep string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(strings.Repeat("`", i))
		b.WriteString(sep)
	}
	return b.String()
}
