package parse_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/workers/parse"
)

// seedCorpus is the fuzzers' seed corpus (run by every go test) and part of
// the Stream property test: the tricky inputs of the issue and of the code.
var seedCorpus = []string{
	"",
	"plain prose without markers",
	"Let me [TOOL: run the google maps scraper for tech companies, limit 50] now.",
	"[tool:x] [ Tool : x ] [TOOL :x] [\tTOOL\t:\tx]",
	"[TOOL: run [TOOL: search for latest deploy script]]",
	"[TOOL: a [TOOL: b [TOOL: c [TOOL: d]]]]",
	"[TOOL: sort [1, 2, 3] ascending]",
	"[TOOL: ]", "[TOOL:]", "[TOOL: [TOOL: ]]",
	"[TOOL: unterminated", "[TOOL: first\n[TOOL: second]", "[TOOL: a\n\n[TOOL: b]",
	"[TOOL: a\n```\n[TOOL: b]\n```\n[TOOL: c]",
	"```\n[TOOL: in code]\n```\n[TOOL: out]",
	"~~~python\n[TOOL: in code]\n~~~",
	"`[TOOL: inline]` [TOOL: real]",
	"``[TOOL: ` ]``", "` `` ``` ````", "```x```\n[TOOL: a]",
	"    ```\n[TOOL: a]\n    ```",
	"[TOOL: grep for `]` in logs]",
	`<tool_call name="disk_usage">{"path":"/tmp"}</tool_call>`,
	`<tool_call><meta_tool>execute</meta_tool><item_type>tool</item_type><action>run</action><item_id>system/disk_usage</item_id><parameters>{"path": "/tmp"}</parameters></tool_call>`,
	`<tool_call><item_id>x</item_id><parameters><path>/tmp</path></parameters><confidence>0.5</confidence></tool_call>`,
	`<tool_call>{"name": "x", "arguments": {"a": 1}}</tool_call>`,
	`<tool_call name="x"/>`, `<tool_call name="x">`, "<tool_call", "<tool_call>\n[TOOL: after]",
	`<tool_call name="x">{"q": "a<b && c"}</tool_call>`,
	`<tool_call name="x">not json</tool_call>`,
	`<tool_call><item_id>x</tool_call>`,
	`<tool_call><![CDATA[x]]></tool_call>`,
	"`<tool_call name=\"x\"/>`",
	"[TOOL: oops\n<tool_call name=\"x\">{\"a\": [1]}</tool_call> [TOOL: y]",
	"[TOOL: a <tool_calls> <tool_cal b]",
	"[TOOL: café ☕ 😀 日本語]", "\u00a0[TOOL:\u2003x\u3000]\u0085",
	"[TOOL: a\r\nb]\r\n", "[" + strings.Repeat(" ", 16) + "TOOL: x]",
	strings.Repeat("[TOOL:", 50), strings.Repeat("]", 50), strings.Repeat("`", 50),
	strings.Repeat("[TOOL: x ", 40) + strings.Repeat("]", 40),
	strings.Repeat("[TOOL: x] ", 33),
	"\xff", "[TOOL: \xe6\x97]", "ok \xe6\x97",
}

func FuzzParse(f *testing.F) {
	for _, s := range seedCorpus {
		f.Add(s, uint8(0))
		f.Add(s, uint8(7))
	}
	f.Fuzz(func(t *testing.T, text string, opts uint8) {
		p, chars := fuzzParser(opts)
		got, err := p.Parse(output(text))
		if err != nil {
			var pe *parse.Error
			if !errors.As(err, &pe) || pe.Message == "" {
				t.Fatalf("error %v is not a *parse.Error", err)
			}
			return
		}
		checkInvariants(t, text, got, chars)
	})
}

func FuzzStream(f *testing.F) {
	for i, s := range seedCorpus {
		f.Add(s, uint64(i), uint8(i))
	}
	f.Fuzz(func(t *testing.T, text string, seed uint64, opts uint8) {
		p, _ := fuzzParser(opts)
		sameAsParse(t, p, text, randomSizes(rand.New(rand.NewPCG(seed, seed>>32)), len(text)))
	})
}

// fuzzParser picks the options from a fuzzed byte: code intents, a small
// context, a small intent limit.
func fuzzParser(opts uint8) (*parse.Parser, int) {
	chars := int(opts>>2) % 12
	if opts&2 == 0 {
		chars = parse.DefaultContextChars
	}
	o := []parse.Option{parse.WithCodeIntents(opts&1 != 0), parse.WithContextChars(chars)}
	if opts&0x80 != 0 {
		o = append(o, parse.WithMaxIntents(2))
	}
	return parse.New(o...), chars
}
