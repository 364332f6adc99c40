package parse_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/parse"
)

func TestMarkers(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"plain", "Let me [TOOL: run the google maps scraper for tech companies, limit 50] now.",
			[]string{`0 "run the google maps scraper for tech companies, limit 50"`}},
		{"lower case, no space", "[tool:x]", []string{`0 "x"`}},
		{"spaces around the colon", "[ Tool : x ]", []string{`0 "x"`}},
		{"space before the colon", "[TOOL :x]", []string{`0 "x"`}},
		{"tabs", "[\tTOOL\t:\tx]", []string{`0 "x"`}},
		{"mixed case", "[ToOl: x]", []string{`0 "x"`}},
		{"sixteen pads", "[" + strings.Repeat(" ", 16) + "TOOL" + strings.Repeat(" ", 16) + ": x]", []string{`0 "x"`}},
		{"seventeen pads", "[" + strings.Repeat(" ", 17) + "TOOL: x]", nil},
		{"seventeen pads after", "[TOOL" + strings.Repeat("\t", 17) + ": x]", nil},
		{"TOOLS is not TOOL", "[TOOLS: x]", nil},
		{"no colon", "[TOOL x]", nil},
		{"split word", "[TO OL: x]", nil},
		{"line break in the opener", "[TOOL\n: x]", nil},
		{"only a bracket", "[", nil},
		{"opener at the end", "see [TOOL", nil},
		{"multiple, in order", "[TOOL: a] then [TOOL: b] and [TOOL: c]",
			[]string{`0 "a"`, `1 "b"`, `2 "c"`}},
		{"adjacent", "[TOOL: a][TOOL: b]", []string{`0 "a"`, `1 "b"`}},
		{"spans lines", "[TOOL: run the\n  scraper\r\n\tfor   x ]", []string{`0 "run the scraper for x"`}},
		{"unicode whitespace collapses", "[TOOL:\u00a0a\u2003\u3000b\u0085]", []string{`0 "a b"`}},
		{"unicode text", "[TOOL: trouve les cafés à Zürich 東京]", []string{`0 "trouve les cafés à Zürich 東京"`}},
		{"brackets are kept", "[TOOL: sort [1, 2, 3] ascending]", []string{`0 "sort [1, 2, 3] ascending"`}},
		{"brackets nest", "[TOOL: a [b [c] d] e] f]", []string{`0 "a [b [c] d] e"`}},
		{"stray closer in prose", "] [TOOL: a] ]", []string{`0 "a"`}},
		{"wiki brackets around", "[[TOOL: a]]", []string{`0 "a"`}},
		{"colon in text", "[TOOL: time: now]", []string{`0 "time: now"`}},
		{"quotes do not protect a bracket", `[TOOL: find "]" chars]`, []string{`0 "find \""`}},
		{"double colon", "[TOOL::x]", []string{`0 ":x"`}},
		{"link after", "[TOOL: a](http://x)", []string{`0 "a"`}},
		{"a tool_call cuts a marker", `[TOOL: use <tool_call name="x"/>]`, []string{`0 call execute x {}`, "! unterminated@0"}},
		{"forgotten bracket before a call", "[TOOL: oops\n<tool_call name=\"x\">{\"a\": [1, [2]]}</tool_call> [TOOL: y]",
			[]string{`0 call execute x {"a":[1,[2]]}`, `1 "y"`, "! unterminated@0"}},
		{"near-miss call in a marker is text", "[TOOL: a <tool_calls> <tool b]", []string{`0 "a <tool_calls> <tool b"`}},
		{"call in code in a marker is text", "[TOOL: a `<tool_call>` b]", []string{"0 \"a `<tool_call>` b\""}},

		{"nested", "[TOOL: run [TOOL: search for latest deploy script]]",
			[]string{`0 "search for latest deploy script" ^1`, `1 "run search for latest deploy script" <-0`}},
		{"nested siblings", "[TOOL: combine [TOOL: a] and [TOOL: b] now]",
			[]string{`0 "a" ^2`, `1 "b" ^2`, `2 "combine a and b now" <-0,1`}},
		{"nested three deep", "[TOOL: x [TOOL: y [TOOL: z]]] [TOOL: w]",
			[]string{`0 "z" ^1`, `1 "y z" <-0 ^2`, `2 "x y z" <-1`, `3 "w"`}},
		{"nested only", "[TOOL: [TOOL: z]]", []string{`0 "z" ^1`, `1 "z" <-0`}},
		{"nested glued", "[TOOL: a[TOOL: b]c]", []string{`0 "b" ^1`, `1 "abc" <-0`}},
		{"nested inside plain brackets", "[TOOL: x [a [TOOL: y] b]]", []string{`0 "y" ^1`, `1 "x [a y b]" <-0`}},
		{"nested across lines", "[TOOL: fetch\n[TOOL: find\nthe url]\nnow]", []string{`0 "find the url" ^1`, `1 "fetch find the url now" <-0`}},

		{"empty", "a [TOOL: ] b", []string{"! empty_intent@2"}},
		{"empty, no space", "[TOOL:]", []string{"! empty_intent@0"}},
		{"empty over lines", "[TOOL: \n  \t ]", []string{"! empty_intent@0"}},
		{"empty inner", "[TOOL: run [TOOL: ] now]", []string{`0 "run now"`, "! empty_intent@11"}},
		{"empty inner only", "[TOOL: [TOOL: ]]", []string{"! empty_intent@7", "! empty_intent@0"}},

		{"unterminated at the end", "do [TOOL: something", []string{"! unterminated@3"}},
		{"unterminated, then a marker", "[TOOL: first\n[TOOL: second] ok",
			[]string{`0 "second"`, "! unterminated@0"}},
		{"unterminated, blank line, then a marker", "[TOOL: first\n\n[TOOL: second] ok",
			[]string{`0 "second"`, "! unterminated@0"}},
		{"unterminated, blank line with spaces", "[TOOL: first\n \t\r\n[TOOL: second]",
			[]string{`0 "second"`, "! unterminated@0"}},
		{"unterminated, a later ] closes it", "[TOOL: first oops [TOOL: second] more]",
			[]string{`0 "second" ^1`, `1 "first oops second more" <-0`}},
		{"unterminated nested", "[TOOL: a [TOOL: b [TOOL: c]\n\nafter [TOOL: d]",
			[]string{`0 "c"`, `1 "d"`, "! unterminated@0", "! unterminated@9"}},
		{"unterminated by an unbalanced bracket", "[TOOL: a [x] [y]\n\n[TOOL: b]",
			[]string{`0 "b"`, "! unterminated@0"}},
		{"unterminated by a fence", "[TOOL: a\n```\n[TOOL: in code]\n```\n[TOOL: b]",
			[]string{`0 "b"`, "! unterminated@0"}},
		{"line break is not a paragraph break", "[TOOL: a\nb\nc]", []string{`0 "a b c"`}},
	}
	p := parse.New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustParse(t, p, tt.in)
			if d := describe(got); !sameLines(d, tt.want) {
				t.Fatalf("Parse(%q)\n got %q\nwant %q", tt.in, d, tt.want)
			}
			checkInvariants(t, tt.in, got, parse.DefaultContextChars)
			for _, size := range []int{1, 2, 3, 7} {
				sameAsParse(t, p, tt.in, repeatSize(size, len(tt.in)))
			}
		})
	}
}

func repeatSize(size, n int) []int {
	var s []int
	for ; n > 0; n -= size {
		s = append(s, size)
	}
	return s
}

func TestIntentFields(t *testing.T) {
	out := schemas.AgentOutput{
		SessionID: "sess", MessageID: "msg-7",
		Text:         "Before. [TOOL: outer [TOOL: inner]] After.",
		Conversation: []schemas.Message{{Role: "user", Content: "hi"}},
		Scope:        []string{"maps"},
		TimeZone:     "Europe/Berlin",
	}
	got, err := parse.New().Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []schemas.Intent{
		{V: 1, ID: "msg-7.0", SessionID: "sess", MessageID: "msg-7", Index: 0, Text: "inner",
			Start: 21, End: 34, ContextBefore: "Before. [TOOL: outer ", ContextAfter: "] After.",
			Outer: "msg-7.1", Conversation: out.Conversation, Scope: out.Scope, TimeZone: "Europe/Berlin"},
		{V: 1, ID: "msg-7.1", SessionID: "sess", MessageID: "msg-7", Index: 1, Text: "outer inner",
			Start: 8, End: 35, ContextBefore: "Before. ", ContextAfter: " After.",
			DependsOn: []string{"msg-7.0"}, Nested: []schemas.Nested{{ID: "msg-7.0", Start: 6, End: 11}},
			Conversation: out.Conversation, Scope: out.Scope, TimeZone: "Europe/Berlin"},
	}
	if !equalJSON(got.Intents, want) {
		t.Fatalf("got %+v\nwant %+v", got.Intents, want)
	}
	for _, in := range got.Intents {
		if err := schemas.ValidateValue(schemas.KindIntent, in); err != nil {
			t.Errorf("intent %s breaks its contract: %v", in.ID, err)
		}
	}
	if ids := got.IDs(); strings.Join(ids, ",") != "msg-7.0,msg-7.1" {
		t.Errorf("IDs = %v", ids)
	}
}

func TestContext(t *testing.T) {
	tests := []struct {
		name          string
		chars         int
		in            string
		before, after string
	}{
		{"short text", 500, "ab [TOOL: x] cd", "ab ", " cd"},
		{"cut to runes", 3, "abcdef[TOOL: x]ghijkl", "def", "ghi"},
		{"multibyte runes", 3, "日本語のテキスト[TOOL: x]ももももも", "キスト", "ももも"},
		{"four-byte runes", 2, "😀😁😂[TOOL: x]🤣😃😄", "😁😂", "🤣😃"},
		{"combining marks count as runes", 2, "e\u0301e\u0301[TOOL: x]", "e\u0301", ""},
		{"zero", 0, "ab [TOOL: x] cd", "", ""},
		{"negative is zero", -5, "ab [TOOL: x] cd", "", ""},
		{"raw, not normalized", 500, "a\n\n  b [TOOL: x]\tc\n", "a\n\n  b ", "\tc\n"},
		{"at the edges", 10, "[TOOL: x]", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := parse.New(parse.WithContextChars(tt.chars))
			got := mustParse(t, p, tt.in)
			if len(got.Intents) != 1 {
				t.Fatalf("got %v", describe(got))
			}
			in := got.Intents[0]
			if in.ContextBefore != tt.before || in.ContextAfter != tt.after {
				t.Fatalf("context = %q / %q, want %q / %q", in.ContextBefore, in.ContextAfter, tt.before, tt.after)
			}
		})
	}
	t.Run("default is 500 runes", func(t *testing.T) {
		text := strings.Repeat("é", 600) + "[TOOL: x]" + strings.Repeat("ü", 600)
		in := mustParse(t, parse.New(), text).Intents[0]
		if n, m := len([]rune(in.ContextBefore)), len([]rune(in.ContextAfter)); n != 500 || m != 500 {
			t.Fatalf("context runes = %d / %d", n, m)
		}
	})
}

func TestWholeOutputErrors(t *testing.T) {
	tests := []struct {
		name string
		opts []parse.Option
		out  schemas.AgentOutput
		code string
		is   error
	}{
		{"no message id", nil, schemas.AgentOutput{SessionID: "s", Text: "[TOOL: x]"}, parse.CodeInvalidMessageID, parse.ErrInvalidMessageID},
		{"message id with a space", nil, schemas.AgentOutput{SessionID: "s", MessageID: "a b", Text: "x"}, parse.CodeInvalidMessageID, parse.ErrInvalidMessageID},
		{"message id too long", nil, schemas.AgentOutput{SessionID: "s", MessageID: strings.Repeat("m", 241), Text: "x"}, parse.CodeInvalidMessageID, parse.ErrInvalidMessageID},
		{"too large", []parse.Option{parse.WithMaxTextBytes(10)}, output("0123456789A"), parse.CodeTooLarge, parse.ErrTooLarge},
		{"too large by default", nil, output(strings.Repeat("a", 256<<10+1)), parse.CodeTooLarge, parse.ErrTooLarge},
		{"invalid UTF-8", nil, output("ok [TOOL: \xff]"), parse.CodeInvalidUTF8, parse.ErrInvalidUTF8},
		{"truncated UTF-8", nil, output("ok \xe6\x97"), parse.CodeInvalidUTF8, parse.ErrInvalidUTF8},
		{"surrogate half", nil, output("\xed\xa0\x80"), parse.CodeInvalidUTF8, parse.ErrInvalidUTF8},
		{"too many intents", nil, output(strings.Repeat("[TOOL: x] ", 33)), parse.CodeTooManyIntents, parse.ErrTooManyIntents},
		{"too many with calls", []parse.Option{parse.WithMaxIntents(2)}, output(`[TOOL: a] <tool_call name="b"/> [TOOL: c]`), parse.CodeTooManyIntents, parse.ErrTooManyIntents},
		{"too many nested", []parse.Option{parse.WithMaxIntents(2)}, output("[TOOL: a [TOOL: b [TOOL: c]]]"), parse.CodeTooManyIntents, parse.ErrTooManyIntents},
		{"conversation too large", []parse.Option{parse.WithMaxConversationBytes(10)},
			withConversation(output("[TOOL: x]"), schemas.Message{Role: "user", Content: "0123456789"}), parse.CodeConversationTooLarge, parse.ErrConversationTooLarge},
		{"unknown time zone", nil, withZone(output("[TOOL: x]"), "Mars/Olympus_Mons"), parse.CodeInvalidTimeZone, parse.ErrInvalidTimeZone},
		{"Local is no time zone of a person", nil, withZone(output("[TOOL: x]"), "Local"), parse.CodeInvalidTimeZone, parse.ErrInvalidTimeZone},
		{"conversation too large by default", nil,
			withConversation(output("[TOOL: x]"), schemas.Message{Role: "user", Content: strings.Repeat("a", 1<<20)}), parse.CodeConversationTooLarge, parse.ErrConversationTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parse.New(tt.opts...).Parse(tt.out)
			var pe *parse.Error
			if !errors.As(err, &pe) || pe.Code != tt.code {
				t.Fatalf("err = %v, want code %s", err, tt.code)
			}
			if !errors.Is(err, tt.is) || pe.Message == "" || !strings.HasPrefix(err.Error(), "parse: ") {
				t.Fatalf("err = %#v", err)
			}
			if len(got.Intents)+len(got.Calls)+len(got.Problems) != 0 {
				t.Fatalf("a failed output yields nothing, got %v", describe(got))
			}
		})
	}
}

func TestLimitsAtTheEdge(t *testing.T) {
	if _, err := parse.New().Parse(output(strings.Repeat("[TOOL: x] ", 32))); err != nil {
		t.Fatalf("32 intents are allowed: %v", err)
	}
	if _, err := parse.New(parse.WithMaxTextBytes(10)).Parse(output("0123456789")); err != nil {
		t.Fatalf("10 bytes are allowed: %v", err)
	}
	got := mustParse(t, parse.New(parse.WithMaxIntents(1)), "[TOOL: x] [TOOL: ] [TOOL: y")
	if d := describe(got); !sameLines(d, []string{`0 "x"`, "! empty_intent@10", "! unterminated@19"}) {
		t.Fatalf("problems do not count as intents: %q", d)
	}
	// Options that make no sense keep the defaults.
	if _, err := parse.New(parse.WithMaxIntents(0), parse.WithMaxTextBytes(-1), nil).Parse(output(strings.Repeat("[TOOL: x] ", 32))); err != nil {
		t.Fatal(err)
	}
}

func TestProblemMessages(t *testing.T) {
	p := parse.New()
	tests := []struct {
		in   string
		code string
		says []string
	}{
		{"run [TOOL: ] now", parse.CodeEmptyIntent, []string{"byte 4", `"[TOOL: ]"`, "empty"}},
		{"[TOOL: search for the latest deployment script in the ops repository", parse.CodeUnterminated,
			[]string{"byte 0", `"[TOOL: search for the latest deployment…"`, "end of the output", `"]"`}},
		{"[TOOL: a\n\nb", parse.CodeUnterminated, []string{"blank line"}},
		{"[TOOL: a\n```\nb\n```", parse.CodeUnterminated, []string{"code fence"}},
		{`[TOOL: a <tool_call name="x"/>`, parse.CodeUnterminated, []string{"the <tool_call> that follows it"}},
		{`<tool_call name="x">[1]</tool_call>`, parse.CodeBadToolCall, []string{"byte 0", "JSON object", `<tool_call name=\"x\">[1]</tool_call>`}},
		{`<tool_call name="x">{}`, parse.CodeUnterminated, []string{"byte 0", "</tool_call>"}},
	}
	for _, tt := range tests {
		got := mustParse(t, p, tt.in)
		if len(got.Problems) != 1 || got.Problems[0].Code != tt.code {
			t.Fatalf("%q: problems %+v", tt.in, got.Problems)
		}
		for _, s := range tt.says {
			if !strings.Contains(got.Problems[0].Message, s) {
				t.Errorf("%q: message %q does not say %q", tt.in, got.Problems[0].Message, s)
			}
		}
	}
}

func TestTooManyProblems(t *testing.T) {
	got := mustParse(t, parse.New(), strings.Repeat("[TOOL: ] ", 100)+"[TOOL: fine]")
	if len(got.Intents) != 1 || len(got.Problems) != 65 {
		t.Fatalf("got %d intents, %d problems", len(got.Intents), len(got.Problems))
	}
	last := got.Problems[64]
	if last.Code != parse.CodeTooManyProblems || last.Pos != 64*9 || !strings.Contains(last.Message, "36 more") {
		t.Fatalf("last problem %+v", last)
	}
}

func TestIDsInRunOrder(t *testing.T) {
	got := mustParse(t, parse.New(), `<tool_call name="a"/> [TOOL: b [TOOL: c]] <tool_call name="d"/>`)
	if ids := strings.Join(got.IDs(), ","); ids != "m1.0,m1.1,m1.2,m1.3" {
		t.Fatalf("IDs = %s", ids)
	}
	if got.Intents[0].Text != "c" || got.Calls[1].ToolID != "d" || got.Calls[1].IntentID != "m1.3" {
		t.Fatalf("got %v", describe(got))
	}
}

func TestParserIsReusable(t *testing.T) {
	p := parse.New()
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 200 {
				got, err := p.Parse(output("[TOOL: a [TOOL: b]] `[TOOL: c]`"))
				if err != nil || len(got.Intents) != 2 {
					t.Errorf("got %v, %v", describe(got), err)
					return
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
}

func withConversation(out schemas.AgentOutput, conv ...schemas.Message) schemas.AgentOutput {
	out.Conversation = conv
	return out
}

func withZone(out schemas.AgentOutput, zone string) schemas.AgentOutput {
	out.TimeZone = zone
	return out
}
