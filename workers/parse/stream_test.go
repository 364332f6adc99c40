package parse_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/parse"
)

// emittedAt feeds text one byte at a time and records, for each item, the
// length of the text when it came out (-1: at Close).
func emittedAt(t *testing.T, p *parse.Parser, text string) map[string]int {
	t.Helper()
	st := p.NewStream("s1", "m1")
	at := map[string]int{}
	record := func(got parse.Parsed, n int) {
		for _, in := range got.Intents {
			at[in.Text] = n
		}
		for _, c := range got.Calls {
			at["call "+c.ToolID] = n
		}
	}
	for i := 0; i < len(text); i++ {
		got, err := st.Write(text[i : i+1])
		if err != nil {
			t.Fatal(err)
		}
		record(got, i+1)
	}
	record(st.Close(), -1)
	return at
}

func TestStreamEmitsEarly(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[string]int
	}{
		{"at the closing bracket", "a [TOOL: x] b [TOOL: y] c",
			map[string]int{"x": 11, "y": 23}},
		{"inner before outer", "[TOOL: a [TOOL: b] c]",
			map[string]int{"b": 18, "a b c": 21}},
		{"call at its end tag", `x <tool_call name="t">{}</tool_call> y`,
			map[string]int{"call t": 36}},
		{"self-closing call", `<tool_call name="t"/>`, map[string]int{"call t": 21}},
		{"an open backtick holds the rest of its line", "the ` key [TOOL: x] y\nz",
			map[string]int{"x": 22}},
		{"until the end if the line never ends", "the ` key [TOOL: x] y",
			map[string]int{"x": -1}},
		{"a closed span holds nothing", "`a` [TOOL: x] y\n",
			map[string]int{"x": 13}},
		{"an unclosed call holds everything after it", `<tool_call name="t"> [TOOL: x] y`,
			map[string]int{"x": -1}},
		{"a fence line is decided at its end", "```x` [TOOL: y]\n",
			map[string]int{"y": 16}},
	}
	p := parse.New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := emittedAt(t, p, tt.in)
			if !equalJSON(got, tt.want) {
				t.Fatalf("emitted at %v, want %v", got, tt.want)
			}
		})
	}
}

func TestStreamPositionsAndContext(t *testing.T) {
	p := parse.New(parse.WithContextChars(8))
	st := p.NewStreamFor(schemas.AgentOutput{SessionID: "s1", MessageID: "m1",
		Conversation: []schemas.Message{{Role: "user", Content: "q"}}, Scope: []string{"ops"}})
	var all []schemas.Intent
	for _, chunk := range []string{"Hello there. [TO", "OL: fi", "rst] and th", "en [TOOL: second", "] end"} {
		got, err := st.Write(chunk)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, got.Intents...)
	}
	all = append(all, st.Close().Intents...)
	text := "Hello there. [TOOL: first] and then [TOOL: second] end"
	if len(all) != 2 {
		t.Fatalf("got %+v", all)
	}
	for i, in := range all {
		if text[in.Start:in.End] != []string{"[TOOL: first]", "[TOOL: second]"}[i] {
			t.Errorf("intent %d spans %q", i, text[in.Start:in.End])
		}
		if in.Index != i || in.Conversation[0].Content != "q" || in.Scope[0] != "ops" {
			t.Errorf("intent %d: %+v", i, in)
		}
	}
	// ContextAfter holds what came with the closing chunk, no more.
	if all[0].ContextBefore != "o there. "[1:] || all[0].ContextAfter != " and th" {
		t.Errorf("contexts %q / %q", all[0].ContextBefore, all[0].ContextAfter)
	}
	if all[1].ContextAfter != " end" {
		t.Errorf("context after %q", all[1].ContextAfter)
	}
}

func TestStreamSplits(t *testing.T) {
	// Every split point of each text, in two chunks and in three.
	texts := []string{
		"[TOOL: a] [ tool : b ]",
		"x\n```go\n[TOOL: a]\n```\n[TOOL: b]",
		"~~~\n[TOOL: a]\n~~~~\n[TOOL: b]",
		"`` [TOOL: a] `` [TOOL: b] ``` c",
		"[TOOL: café ☕ 😀]",
		"é😀[TOOL: 日本]😀é",
		`<tool_call name="t">{"a": "</tool_cal"}</tool_call >[TOOL: x]`,
		"[TOOL: a\n   \n[TOOL: b]",
		"[TOOL: a [TOOL: b [TOOL: c]]]",
	}
	p := parse.New(parse.WithContextChars(3))
	for _, text := range texts {
		for i := 0; i <= len(text); i++ {
			sameAsParse(t, p, text, []int{i})
			for j := i; j <= len(text); j += 3 {
				sameAsParse(t, p, text, []int{i, j - i})
			}
		}
	}
}

func TestStreamErrors(t *testing.T) {
	t.Run("too large across chunks", func(t *testing.T) {
		st := parse.New(parse.WithMaxTextBytes(10)).NewStream("s", "m")
		if _, err := st.Write("[TOOL: a]"); err != nil {
			t.Fatal(err)
		}
		_, err := st.Write("xx")
		if !errors.Is(err, parse.ErrTooLarge) {
			t.Fatalf("err = %v", err)
		}
		if _, again := st.Write(""); again != err || st.Err() != err {
			t.Fatalf("the error sticks: %v, %v", again, st.Err())
		}
		if got := st.Close(); len(got.Intents)+len(got.Problems) != 0 {
			t.Fatalf("Close after an error yields %v", describe(got))
		}
	})
	t.Run("invalid UTF-8", func(t *testing.T) {
		st := parse.New().NewStream("s", "m")
		_, _ = st.Write("ok ")
		_, err := st.Write("a\xffb")
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Code != parse.CodeInvalidUTF8 || !strings.Contains(pe.Message, "offset 4") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("invalid UTF-8 across chunks", func(t *testing.T) {
		st := parse.New().NewStream("s", "m")
		if _, err := st.Write("ok \xe6"); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Write("x"); !errors.Is(err, parse.ErrInvalidUTF8) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a character cut short at the end", func(t *testing.T) {
		st := parse.New().NewStream("s", "m")
		got, err := st.Write("[TOOL: a] \xe6\x97")
		if err != nil || len(got.Intents) != 1 {
			t.Fatalf("got %v, %v", describe(got), err)
		}
		end := st.Close()
		if len(end.Problems) != 1 || end.Problems[0].Code != parse.CodeInvalidUTF8 || !errors.Is(st.Err(), parse.ErrInvalidUTF8) {
			t.Fatalf("Close = %+v, Err = %v", end, st.Err())
		}
	})
	t.Run("too many intents", func(t *testing.T) {
		st := parse.New(parse.WithMaxIntents(2)).NewStream("s", "m")
		if _, err := st.Write("[TOOL: a] [TOOL: b] "); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Write("[TOOL: c]"); !errors.Is(err, parse.ErrTooManyIntents) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("too many intents found at Close", func(t *testing.T) {
		st := parse.New(parse.WithMaxIntents(1)).NewStream("s", "m")
		if got, err := st.Write("[TOOL: a] <tool_call> [TOOL: b]"); err != nil || len(got.Intents) != 1 {
			t.Fatalf("got %v, %v", describe(got), err)
		}
		end := st.Close()
		if len(end.Intents) != 0 || len(end.Problems) != 1 || end.Problems[0].Code != parse.CodeTooManyIntents || !errors.Is(st.Err(), parse.ErrTooManyIntents) {
			t.Fatalf("Close = %+v, Err = %v", end, st.Err())
		}
	})
	t.Run("no message id", func(t *testing.T) {
		if _, err := parse.New().NewStream("s", "").Write("x"); !errors.Is(err, parse.ErrInvalidMessageID) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("write after close", func(t *testing.T) {
		st := parse.New().NewStream("s", "m")
		st.Close()
		if _, err := st.Write("x"); !errors.Is(err, parse.ErrClosed) {
			t.Fatalf("err = %v", err)
		}
		if got := st.Close(); len(got.Problems) != 0 {
			t.Fatal("a second Close yields nothing")
		}
	})
}

func TestStreamMemoryIsBounded(t *testing.T) {
	prose := strings.Repeat("Some prose with a [link](x), `code` and ~tildes~.\n", 5000)
	tests := []struct {
		name  string
		text  string
		limit int
	}{
		{"prose", prose, 32 << 10},
		{"in a fence", "```\n" + prose, 32 << 10},
		{"intents", strings.Repeat("Text [TOOL: x] text.\n\n", 10), 32 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := parse.New(parse.WithMaxTextBytes(1<<20), parse.WithMaxIntents(100)).NewStream("s", "m")
			peak := 0
			for text := tt.text; text != ""; {
				n := min(len(text), 100)
				if _, err := st.Write(text[:n]); err != nil {
					t.Fatal(err)
				}
				text = text[n:]
				peak = max(peak, st.Buffered())
			}
			if peak > tt.limit {
				t.Fatalf("held %d bytes of %d", peak, len(tt.text))
			}
		})
	}
}

func TestStreamIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	// Fed one byte at a time, a Stream that looked at its whole pending token
	// again on every chunk would be quadratic in these.
	inputs := map[string]string{
		"long backtick run":     strings.Repeat("`", 100000),
		"open span on one line": "` " + strings.Repeat("x`` ", 25000),
		"runs in a marker":      "[TOOL: " + backtickRuns(400, " y "),
		"unclosed call":         `<tool_call name="x">` + strings.Repeat(`{"a": "</tool_cal"} `, 5000),
		"call end tag pads":     `<tool_call name="x"></tool_call` + strings.Repeat(" ", 16) + strings.Repeat("x", 100000),
		"fence info":            "```" + strings.Repeat("x", 100000),
		"fence run":             strings.Repeat("~", 100000),
		"fence closer":          "```\n```" + strings.Repeat(" ", 100000),
		"blank line in marker":  "[TOOL: a\n" + strings.Repeat(" ", 100000),
		"unclosed marker":       "[TOOL: " + strings.Repeat("word ", 20000),
	}
	p := parse.New()
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			st := p.NewStream("s", "m")
			for i := 0; i < len(in); i++ {
				if _, err := st.Write(in[i : i+1]); err != nil {
					t.Fatal(err)
				}
			}
			st.Close()
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("%d one-byte chunks took %v", len(in), d)
			}
			sameAsParse(t, p, in, randomSizes(rand.New(rand.NewPCG(1, 2)), len(in)))
		})
	}
}

// TestStreamMatchesParse is the property: for many inputs and random
// chunkings, what a Stream finds is what Parse finds.
func TestStreamMatchesParse(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	parsers := []*parse.Parser{
		parse.New(),
		parse.New(parse.WithContextChars(2)),
		parse.New(parse.WithCodeIntents(true), parse.WithContextChars(5)),
		parse.New(parse.WithMaxIntents(3)),
	}
	texts := append([]string{}, seedCorpus...)
	for range 400 {
		texts = append(texts, randomText(r, 1+r.IntN(60)))
	}
	// Long enough for the Stream to drop old text.
	for range 5 {
		texts = append(texts, randomText(r, 3000))
	}
	for _, text := range texts {
		for _, p := range parsers {
			for range 3 {
				sameAsParse(t, p, text, randomSizes(r, len(text)))
			}
		}
	}
}

var pieces = []string{
	"[TOOL:", "[tool :", "[ TOOL: ", "[TOO", "[", "]", "]", "]", "`", "``", "```", "~~~", "\n", "\n\n", "\r\n", " ", "  ", "\t",
	"x", "run", "é", "😀", "日本", "\u00a0", "<tool_call", `<tool_call name="t">`, "<tool_call>", "</tool_call>", "/>", ">",
	`{"a": 1}`, `{"name": "t"}`, "<item_id>t</item_id>", "<parameters>", "</parameters>", "<p>1</p>", "    ", "[TOOL: a]",
	"`[TOOL: b]`", "```\n", "\n```\n", "&", `"`,
}

func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}
