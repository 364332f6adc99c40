package join_test

import (
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/join"
	"github.com/toolyard/toolyard/workers/parse"
)

func executed(content any) schemas.Result {
	return schemas.Result{Status: schemas.StatusExecuted, ToolID: "t/x", Output: &schemas.ToolOutput{Content: content}}
}

func TestRender(t *testing.T) {
	cases := []struct {
		name     string
		r        schemas.Result
		max      int
		ok       bool
		text     string
		inReason string
	}{
		{"string output", executed("Example Domain\n"), 100, true, "Example Domain", ""},
		{"whitespace runs become one space", executed("  a\n\n b\t c \n"), 100, true, "a b c", ""},
		{"JSON output is compact", executed(map[string]any{"n": 3, "w": []any{"a"}}), 100, true, `{"n":3,"w":["a"]}`, ""},
		{"no output", schemas.Result{Status: schemas.StatusExecuted}, 100, true, "", ""},
		{"cut at max runes", executed("héllo wörld again"), 5, true, "héllo…", ""},
		{"cut does not end in a space", executed("abcd efgh"), 5, true, "abcd…", ""},
		{"not found", schemas.Result{Status: schemas.StatusNotFound, Message: "No tool matches \"fetch the title\"."}, 100, false, "", "No tool matches"},
		{"error keeps its code", schemas.Result{Status: schemas.StatusError, Error: &schemas.Error{Code: "tool_failed", Message: "exit status 1"}}, 100, false, "", "exit status 1"},
		{"multiple matches", schemas.Result{Status: schemas.StatusMultiple, Message: "Several tools could do this: activate one."}, 100, false, "", "activate one"},
		{"matches are listed", schemas.Result{Status: schemas.StatusMultiple, Message: "Several tools could do this: activate one.",
			Matches: []schemas.Candidate{{ToolID: "files/head", Confidence: 0.75}, {ToolID: "files/tail", Confidence: 0.09}}}, 100, false, "", "the candidates were files/head (0.75), files/tail (0.09)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := join.Render(c.r, c.max)
			if in.OK() != c.ok || in.Text != c.text || !strings.Contains(in.Reason, c.inReason) || in.Status != c.r.Status {
				t.Errorf("Render = %+v, want ok=%v text=%q reason containing %q", in, c.ok, c.text, c.inReason)
			}
			if c.r.Error != nil && in.Code != c.r.Error.Code {
				t.Errorf("code %q, want %q", in.Code, c.r.Error.Code)
			}
		})
	}
}

func TestSubstitute(t *testing.T) {
	in := schemas.Intent{ID: "m.2", Text: "count the words of x then y", DependsOn: []string{"m.0", "m.1"},
		Nested: []schemas.Nested{{ID: "m.0", Start: 19, End: 20}, {ID: "m.1", Start: 26, End: 27}}}
	cases := []struct {
		name    string
		in      schemas.Intent
		inputs  map[string]join.Input
		want    string
		wantErr string
	}{
		{"two inputs", in, map[string]join.Input{"m.0": {Status: "executed", Text: "hello world"}, "m.1": {Status: "executed", Text: "42"}},
			"count the words of hello world then 42", ""},
		{"empty input inside", in, map[string]join.Input{"m.0": {Status: "executed"}, "m.1": {Status: "executed", Text: "z"}},
			"count the words of then z", ""},
		{"empty input at the end is trimmed",
			schemas.Intent{ID: "m.1", Text: "run x", DependsOn: []string{"m.0"}, Nested: []schemas.Nested{{ID: "m.0", Start: 4, End: 5}}},
			map[string]join.Input{"m.0": {Status: "executed"}}, "run", ""},
		{"nothing left",
			schemas.Intent{ID: "m.1", Text: "x", DependsOn: []string{"m.0"}, Nested: []schemas.Nested{{ID: "m.0", Start: 0, End: 1}}},
			map[string]join.Input{"m.0": {Status: "executed"}}, "", "was empty"},
		{"missing input", in, map[string]join.Input{"m.0": {Status: "executed", Text: "a"}}, "", "no input for nested intent m.1"},
		{"span outside the text",
			schemas.Intent{ID: "m.1", Text: "x", DependsOn: []string{"m.0"}, Nested: []schemas.Nested{{ID: "m.0", Start: 0, End: 9}}},
			map[string]join.Input{"m.0": {Status: "executed"}}, "", "does not fit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := join.Substitute(c.in, c.inputs)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Text != c.want {
				t.Fatalf("text %q, want %q", got.Text, c.want)
			}
			for _, n := range got.Nested {
				if got.Text[n.Start:n.End] != c.inputs[n.ID].Text {
					t.Errorf("span %+v reads %q, want the input %q", n, got.Text[n.Start:n.End], c.inputs[n.ID].Text)
				}
			}
		})
	}
}

// parsed parses text with the real parser and returns its intents by id.
func parsed(t *testing.T, text string) []schemas.Intent {
	t.Helper()
	p, err := parse.New().Parse(schemas.AgentOutput{SessionID: "s", MessageID: "m", Text: text})
	if err != nil {
		t.Fatal(err)
	}
	return p.Intents
}

func TestPendingOutcomes(t *testing.T) {
	now := time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC)
	cases := []struct {
		name      string
		text      string
		results   map[string]schemas.Result // by inner id
		wantText  string                    // outer intent sent on, or
		wantCode  string                    // error result code
		inMessage []string
	}{
		{
			name:     "inner output substituted",
			text:     "[TOOL: translate [TOOL: fetch the page title of example.com] into French]",
			results:  map[string]schemas.Result{"m.0": executed("Example Domain\n")},
			wantText: "translate Example Domain into French",
		},
		{
			name: "two inner intents",
			text: "[TOOL: compare [TOOL: kernel version] with [TOOL: uptime]]",
			results: map[string]schemas.Result{
				"m.0": executed("Linux 6.1"), "m.1": executed(" 18:00 up 3 days "),
			},
			wantText: "compare Linux 6.1 with 18:00 up 3 days",
		},
		{
			name: "inner not found: outer not run",
			text: "[TOOL: translate [TOOL: fetch the page title of example.com] into French]",
			results: map[string]schemas.Result{"m.0": {Status: schemas.StatusNotFound,
				Message: "No tool matches 'fetch the page title'. Rephrase."}},
			wantCode:  join.CodeInputFailed,
			inMessage: []string{"m.0", `"fetch the page title of example.com"`, "not_found", "No tool matches"},
		},
		{
			name: "one of two inner intents fails",
			text: "[TOOL: compare [TOOL: kernel version] with [TOOL: uptime]]",
			results: map[string]schemas.Result{
				"m.0": executed("Linux"),
				"m.1": {Status: schemas.StatusError, Error: &schemas.Error{Code: "tool_failed", Message: "exit status 2"}},
			},
			wantCode:  join.CodeInputFailed,
			inMessage: []string{"intent m.1", `"uptime"`, "error (tool_failed)", "exit status 2"},
		},
		{
			name:      "inner with alternatives",
			text:      "[TOOL: email [TOOL: weather] to bob]",
			results:   map[string]schemas.Result{"m.0": {Status: schemas.StatusMultiple, Message: "Several tools match."}},
			wantCode:  join.CodeInputFailed,
			inMessage: []string{"multiple_matches"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ins := parsed(t, c.text)
			outer := ins[len(ins)-1]
			p := join.NewPending(outer, now)
			for i, id := range outer.DependsOn {
				if p.Decide(now) {
					t.Fatalf("decided with %d of %d inputs", i, len(outer.DependsOn))
				}
				if !p.Add(id, join.Render(c.results[id], 1000)) {
					t.Fatalf("input %s not taken", id)
				}
				if p.Add(id, join.Render(c.results[id], 1000)) {
					t.Fatalf("input %s taken twice", id)
				}
			}
			if !p.Decide(now) || p.State != join.StateDone || p.Outcome == nil {
				t.Fatalf("not decided: %+v", p)
			}
			if c.wantCode == "" {
				if p.Outcome.Intent == nil || p.Outcome.Result != nil {
					t.Fatalf("outcome %+v, want the intent", p.Outcome)
				}
				got := p.Outcome.Intent
				if got.Text != c.wantText || got.ID != outer.ID || got.SessionID != "s" {
					t.Errorf("intent %q (%s), want %q", got.Text, got.ID, c.wantText)
				}
				if err := schemas.ValidateValue(schemas.KindIntent, *got); err != nil {
					t.Errorf("substituted intent breaks its contract: %v", err)
				}
				return
			}
			r := p.Outcome.Result
			if r == nil || p.Outcome.Intent != nil || r.Status != schemas.StatusError || r.Error.Code != c.wantCode || r.IntentID != outer.ID || r.Stage != "join" {
				t.Fatalf("outcome %+v, want error %s for %s", p.Outcome, c.wantCode, outer.ID)
			}
			for _, s := range c.inMessage {
				if !strings.Contains(r.Message, s) {
					t.Errorf("message %q does not say %q", r.Message, s)
				}
			}
			if err := schemas.ValidateValue(schemas.KindResult, *r); err != nil {
				t.Errorf("error result breaks its contract: %v", err)
			}
		})
	}
}

// a → b → c: the innermost runs first, each outer one gets its inner one's
// result, and a failure anywhere travels all the way out.
func TestDeepNesting(t *testing.T) {
	now := time.Now()
	ins := parsed(t, "[TOOL: email [TOOL: summarize [TOOL: fetch example.com] briefly] to bob]")
	if len(ins) != 3 || ins[1].DependsOn[0] != ins[0].ID || ins[2].DependsOn[0] != ins[1].ID {
		t.Fatalf("parse: %+v", ins)
	}
	c, b, a := ins[0], join.NewPending(ins[1], now), join.NewPending(ins[2], now)

	t.Run("success", func(t *testing.T) {
		b, a := b, a
		b.Add(c.ID, join.Render(executed("<h1>Example</h1>"), 1000))
		if !b.Decide(now) || b.Outcome.Intent == nil || b.Outcome.Intent.Text != "summarize <h1>Example</h1> briefly" {
			t.Fatalf("b: %+v", b.Outcome)
		}
		// b runs as a tool of its own; its output is a's input.
		a.Add(b.Intent.ID, join.Render(executed("A page titled Example."), 1000))
		if !a.Decide(now) || a.Outcome.Intent == nil || a.Outcome.Intent.Text != "email A page titled Example. to bob" {
			t.Fatalf("a: %+v", a.Outcome)
		}
	})
	t.Run("innermost fails", func(t *testing.T) {
		b, a := b, a
		b.Add(c.ID, join.Render(schemas.Result{Status: schemas.StatusNotFound, Message: "nothing fetches"}, 1000))
		if !b.Decide(now) || b.Outcome.Result == nil {
			t.Fatalf("b: %+v", b.Outcome)
		}
		// b's error result is a's input.
		a.Add(b.Intent.ID, join.Render(*b.Outcome.Result, 1000))
		if !a.Decide(now) || a.Outcome.Result == nil {
			t.Fatalf("a: %+v", a.Outcome)
		}
		msg := a.Outcome.Result.Message
		for _, s := range []string{b.Intent.ID, "input_failed", c.ID, "not_found"} {
			if !strings.Contains(msg, s) {
				t.Errorf("a's error %q does not say %q", msg, s)
			}
		}
	})
}

func TestExpire(t *testing.T) {
	start := time.Now()
	ins := parsed(t, "[TOOL: compare [TOOL: kernel version] with [TOOL: uptime]]")
	p := join.NewPending(ins[2], start)
	p.Add(ins[0].ID, join.Render(executed("Linux"), 100))
	if p.Expire(start.Add(time.Minute-time.Millisecond), time.Minute) {
		t.Fatal("expired before the timeout")
	}
	if !p.Expire(start.Add(time.Minute), time.Minute) {
		t.Fatal("not expired at the timeout")
	}
	r := p.Outcome.Result
	if r == nil || r.Error.Code != join.CodeInputTimeout || !strings.Contains(r.Message, ins[1].ID) || strings.Contains(r.Message, ins[0].ID) || !strings.Contains(r.Message, "1m0s") {
		t.Fatalf("timeout result %+v, want input_timeout naming only %s", r, ins[1].ID)
	}
	if p.Add(ins[1].ID, join.Render(executed("up"), 100)) || p.Decide(start) || p.Expire(start.Add(time.Hour), time.Minute) {
		t.Fatal("a done record changed")
	}
}
