package parse_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/parse"
)

func output(text string) schemas.AgentOutput {
	return schemas.AgentOutput{SessionID: "s1", MessageID: "m1", Text: text}
}

func mustParse(t *testing.T, p *parse.Parser, text string) parse.Parsed {
	t.Helper()
	got, err := p.Parse(output(text))
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	return got
}

func indexOf(id string) int {
	n, err := strconv.Atoi(id[strings.LastIndexByte(id, '.')+1:])
	if err != nil {
		panic("bad id " + id)
	}
	return n
}

// describe renders what was found in run order, one line per item, then the
// problems: `0 "text" <-1,2`, `1 call execute tool {"a":1}`, `! code@pos`.
func describe(p parse.Parsed) []string {
	type line struct {
		index int
		s     string
	}
	var lines []line
	for _, in := range p.Intents {
		s := fmt.Sprintf("%d %q", in.Index, in.Text)
		if len(in.DependsOn) > 0 {
			var deps []string
			for _, d := range in.DependsOn {
				deps = append(deps, strconv.Itoa(indexOf(d)))
			}
			s += " <-" + strings.Join(deps, ",")
		}
		if in.Outer != "" {
			s += fmt.Sprintf(" ^%d", indexOf(in.Outer))
		}
		lines = append(lines, line{in.Index, s})
	}
	for _, c := range p.Calls {
		params, _ := json.Marshal(c.Parameters)
		s := fmt.Sprintf("%d call %s %s %s", indexOf(c.IntentID), c.MetaTool, c.ToolID, params)
		lines = append(lines, line{indexOf(c.IntentID), s})
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].index < lines[j].index })
	var out []string
	for _, l := range lines {
		out = append(out, l.s)
	}
	for _, pr := range p.Problems {
		out = append(out, fmt.Sprintf("! %s@%d", pr.Code, pr.Pos))
	}
	return out
}

func sameLines(got, want []string) bool {
	return strings.Join(got, "\n") == strings.Join(want, "\n")
}

// streamAll feeds text to a Stream cut at the given sizes (the last chunk
// takes the rest) and concatenates every Write and the Close.
func streamAll(p *parse.Parser, text string, sizes []int) (parse.Parsed, error) {
	st := p.NewStream("s1", "m1")
	var all parse.Parsed
	add := func(x parse.Parsed) {
		all.Intents = append(all.Intents, x.Intents...)
		all.Calls = append(all.Calls, x.Calls...)
		all.Problems = append(all.Problems, x.Problems...)
	}
	for _, n := range sizes {
		if n > len(text) {
			n = len(text)
		}
		got, err := st.Write(text[:n])
		if err != nil {
			return parse.Parsed{}, err
		}
		add(got)
		text = text[n:]
	}
	if text != "" {
		got, err := st.Write(text)
		if err != nil {
			return parse.Parsed{}, err
		}
		add(got)
	}
	add(st.Close())
	if err := st.Err(); err != nil {
		return parse.Parsed{}, err
	}
	return all, nil
}

// randomSizes cuts n bytes into chunks: mostly tiny ones, some large.
func randomSizes(r *rand.Rand, n int) []int {
	var sizes []int
	for n > 0 {
		var k int
		switch r.IntN(4) {
		case 0:
			k = 1
		case 1:
			k = 1 + r.IntN(4)
		case 2:
			k = 1 + r.IntN(16)
		default:
			k = 1 + r.IntN(256)
		}
		k = min(k, n)
		sizes = append(sizes, k)
		n -= k
	}
	return sizes
}

// sameAsParse checks that a Stream over text found what Parse found: the
// same intents (but for ContextAfter, which a Stream cannot know yet), calls
// and problems, in the same order.
func sameAsParse(t *testing.T, p *parse.Parser, text string, sizes []int) {
	t.Helper()
	want, werr := p.Parse(output(text))
	got, gerr := streamAll(p, text, sizes)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("chunks %v of %q: Parse error %v, Stream error %v", sizes, text, werr, gerr)
	}
	if werr != nil {
		return
	}
	for i := range got.Intents {
		if i < len(want.Intents) {
			after := want.Intents[i].ContextAfter
			if !strings.HasPrefix(after, got.Intents[i].ContextAfter) {
				t.Errorf("intent %d ContextAfter %q is not a prefix of %q", i, got.Intents[i].ContextAfter, after)
			}
			got.Intents[i].ContextAfter = after
			// A stream cannot know an inner intent's outer one yet.
			got.Intents[i].Outer = want.Intents[i].Outer
		}
	}
	if !equalJSON(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		w, _ := json.MarshalIndent(want, "", " ")
		t.Fatalf("chunks %v of %q:\nstream %s\nparse  %s", sizes, text, g, w)
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// checkInvariants checks what must hold of any result.
func checkInvariants(t *testing.T, text string, got parse.Parsed, contextChars int) {
	t.Helper()
	ids := map[string]int{}
	for i, in := range got.Intents {
		if in.Text == "" || !utf8.ValidString(in.Text) || in.Text != strings.TrimSpace(in.Text) {
			t.Errorf("intent %d: bad text %q", i, in.Text)
		}
		if in.Start < 0 || in.Start >= in.End || in.End > len(text) {
			t.Errorf("intent %d: bad span [%d,%d) of %d bytes", i, in.Start, in.End, len(text))
		} else if text[in.Start] != '[' || text[in.End-1] != ']' {
			t.Errorf("intent %d: span %q is not a marker", i, text[in.Start:in.End])
		}
		if in.ID != "m1."+strconv.Itoa(in.Index) || in.SessionID != "s1" || in.MessageID != "m1" || in.V != schemas.Version {
			t.Errorf("intent %d: bad identity %+v", i, in)
		}
		if _, dup := ids[in.ID]; dup {
			t.Errorf("intent %d: duplicate id %s", i, in.ID)
		}
		ids[in.ID] = in.Index
		for _, d := range in.DependsOn {
			if j, ok := ids[d]; !ok || j >= in.Index {
				t.Errorf("intent %d: DependsOn %s is not an earlier intent", i, d)
			}
		}
		checkNested(t, i, in, got.Intents)
		// Outer names the one intent that lists this one in DependsOn.
		var outers []string
		for _, o := range got.Intents {
			if slices.Contains(o.DependsOn, in.ID) {
				outers = append(outers, o.ID)
			}
		}
		if want := strings.Join(outers, ","); in.Outer != want {
			t.Errorf("intent %d: Outer %q, but %q list it in DependsOn", i, in.Outer, want)
		}
		for _, c := range []string{in.ContextBefore, in.ContextAfter} {
			if !utf8.ValidString(c) || utf8.RuneCountInString(c) > contextChars {
				t.Errorf("intent %d: bad context %q", i, c)
			}
		}
		if !strings.HasSuffix(text[:in.Start], in.ContextBefore) || !strings.HasPrefix(text[in.End:], in.ContextAfter) {
			t.Errorf("intent %d: contexts are not the text around the marker", i)
		}
	}
	for i, c := range got.Calls {
		if _, dup := ids[c.IntentID]; dup {
			t.Errorf("call %d: duplicate id %s", i, c.IntentID)
		}
		ids[c.IntentID] = indexOf(c.IntentID)
		if !c.Direct || c.SessionID != "s1" || c.MessageID != "m1" || c.V != schemas.Version {
			t.Errorf("call %d: bad identity %+v", i, c)
		}
		if c.MetaTool == schemas.MetaExecute && c.ToolID == "" {
			t.Errorf("call %d: execute without a tool", i)
		}
	}
	// Indices are 0..n-1, each once.
	seen := make([]bool, len(ids))
	for _, idx := range ids {
		if idx < 0 || idx >= len(seen) || seen[idx] {
			t.Errorf("indices are not 0..%d: %v", len(ids)-1, ids)
			break
		}
		seen[idx] = true
	}
	for _, pr := range got.Problems {
		if pr.Pos < 0 || pr.Pos > len(text) || pr.Message == "" || pr.Code == "" || !utf8.ValidString(pr.Message) {
			t.Errorf("bad problem %+v", pr)
		}
	}
}

// checkNested checks that Nested marks, in order, where the text of each
// intent of DependsOn stands in the outer intent's text.
func checkNested(t *testing.T, i int, in schemas.Intent, all []schemas.Intent) {
	t.Helper()
	if len(in.Nested) != len(in.DependsOn) {
		t.Errorf("intent %d: %d nested spans for %d dependencies", i, len(in.Nested), len(in.DependsOn))
		return
	}
	texts := map[string]string{}
	for _, o := range all {
		texts[o.ID] = o.Text
	}
	prev := 0
	for k, n := range in.Nested {
		if n.ID != in.DependsOn[k] || n.Start < prev || n.End > len(in.Text) || n.Start > n.End {
			t.Errorf("intent %d: nested span %+v out of order or out of %q", i, n, in.Text)
			return
		}
		if in.Text[n.Start:n.End] != texts[n.ID] {
			t.Errorf("intent %d: nested span %+v reads %q, want the text of %s %q", i, n, in.Text[n.Start:n.End], n.ID, texts[n.ID])
		}
		prev = n.End
	}
}
