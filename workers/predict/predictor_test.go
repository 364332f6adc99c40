package predict

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// chunks cuts text into pieces of n bytes, numbered from 0.
func chunks(session, message, text string, n int) []schemas.StreamChunk {
	var out []schemas.StreamChunk
	for i := 0; i < len(text); i += n {
		out = append(out, schemas.StreamChunk{SessionID: session, MessageID: message, Seq: uint64(len(out)), Delta: text[i:min(len(text), i+n)]})
	}
	return out
}

// feed gives the chunks to p, one every step, and returns the predicted texts.
func feed(t *testing.T, p *Predictor, cs []schemas.StreamChunk, step time.Duration) []string {
	t.Helper()
	var texts []string
	now := t0
	for _, c := range cs {
		ps, err := p.Feed(now, c)
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range ps {
			texts = append(texts, pr.Source+":"+pr.Text)
		}
		now = now.Add(step)
	}
	return texts
}

func TestPrefixPredictions(t *testing.T) {
	const out = "Sure, one moment. [TOOL: show the open pull requests of the billing repo] and then"
	cases := []struct {
		name  string
		opts  []Option
		chunk int
		step  time.Duration
		want  []string
	}{
		{"every word once three are in", []Option{WithDebounce(0)}, 4, time.Millisecond, []string{
			// "requests of " completes in one chunk: one prediction for both.
			"prefix:show the open", "prefix:show the open pull",
			"prefix:show the open pull requests of", "prefix:show the open pull requests of the",
			"prefix:show the open pull requests of the billing"}},
		{"at most K per intent, two kept for sentence ends", []Option{WithDebounce(0), WithMaxPerIntent(4)}, 4, time.Millisecond, []string{
			"prefix:show the open", "prefix:show the open pull"}},
		{"debounced", []Option{WithDebounce(50 * time.Millisecond)}, 4, 10 * time.Millisecond, []string{
			"prefix:show the open", "prefix:show the open pull requests of the"}},
		{"min words", []Option{WithDebounce(0), WithMinWords(7)}, 1, time.Millisecond, []string{
			"prefix:show the open pull requests of the", "prefix:show the open pull requests of the billing"}},
		{"the marker closes in its chunk: nothing left to predict", []Option{WithDebounce(0)}, len(out), time.Millisecond, nil},
		{"words in one chunk: one prediction", []Option{WithDebounce(0)}, 60, time.Millisecond, []string{
			"prefix:show the open pull requests of the"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := feed(t, New(c.opts...), chunks("s1", "m1", out, c.chunk), c.step)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// tokenRE cuts text as a model writes it: words with the space before
// them, punctuation on its own.
var tokenRE = regexp.MustCompile(`\s*[\p{L}\p{N}]+|\s*[^\s\p{L}\p{N}]`)

func TestSentenceEndPredictsTheWholeIntent(t *testing.T) {
	cases := []struct {
		name string
		text string
		opts []Option
		want []string
	}{
		{"question", "OK. [TOOL: is the staging cluster healthy?]", []Option{WithWordPrefixes(false)},
			[]string{"end:is the staging cluster healthy?"}},
		{"two sentences", "[TOOL: Book a room. Friday at ten!]", []Option{WithWordPrefixes(false)},
			[]string{"end:Book a room.", "end:Book a room. Friday at ten!"}},
		{"a dot inside a word is no end", "[TOOL: open report.pdf please]", []Option{WithWordPrefixes(false)}, nil},
		{"with word prefixes", "[TOOL: is the staging cluster healthy?]", nil,
			[]string{"prefix:is the staging", "end:is the staging cluster healthy?"}},
		{"the end keeps its budget", "[TOOL: a b c d e f g h i j k l m n?]", []Option{WithMaxPerIntent(3)},
			[]string{"prefix:a b c", "prefix:a b c d e f", "end:a b c d e f g h i j k l m n?"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var in []schemas.StreamChunk
			for i, tok := range tokenRE.FindAllString(c.text, -1) {
				in = append(in, schemas.StreamChunk{SessionID: "s", MessageID: "m", Seq: uint64(i), Delta: tok})
			}
			got := feed(t, New(append([]Option{WithDebounce(100 * time.Millisecond)}, c.opts...)...), in, 40*time.Millisecond)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestOpeners(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"[ tool :  list every  printer here]", []string{"prefix:list every", "prefix:list every printer"}},
		{"[x] [TOOLS: not a marker at all] [ToOl: convert this pdf now]", []string{"prefix:convert this", "prefix:convert this pdf"}},
		{"no marker in here at all, just words ]", nil},
		{"[TOOL: a [b] c d e]", []string{"prefix:a [b]", "prefix:a [b] c", "prefix:a [b] c d"}},
		{"[TOOL: one two three] [TOOL: four five six seven]", []string{"prefix:one two", "prefix:four five", "prefix:four five six"}},
	}
	for _, c := range cases {
		got := feed(t, New(WithDebounce(0), WithMinWords(2)), chunks("s", "m", c.text, 1), time.Millisecond)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.text, got, c.want)
		}
	}
}

func TestOutOfOrderAndDuplicateChunks(t *testing.T) {
	const out = "Let me look. [TOOL: translate the release notes into german please] ok"
	in := chunks("s", "m", out, 3)
	want := feed(t, New(WithDebounce(0)), in, 0)
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 20 {
		// Shuffle within windows of 5 and send a third of the chunks twice.
		mixed := append([]schemas.StreamChunk(nil), in...)
		for i := 0; i < len(mixed); i += 5 {
			w := mixed[i:min(len(mixed), i+5)]
			rng.Shuffle(len(w), func(a, b int) { w[a], w[b] = w[b], w[a] })
		}
		var sent []schemas.StreamChunk
		for _, c := range mixed {
			sent = append(sent, c)
			if rng.IntN(3) == 0 {
				sent = append(sent, c)
			}
		}
		p := New(WithDebounce(0))
		got := feed(t, p, sent, 0)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: got %q, want %q", trial, got, want)
		}
		if st := p.Stats(); st.Duplicates != int64(len(sent)-len(in)) {
			t.Errorf("trial %d: %d duplicates counted, %d sent", trial, st.Duplicates, len(sent)-len(in))
		}
	}
}

func TestGapIsGivenUpInBoundedMemory(t *testing.T) {
	in := chunks("s", "m", "[TOOL: archive the old invoices] and [TOOL: email the finance team now]", 2)
	p := New(WithDebounce(0), WithMaxPending(4))
	// Chunk 5 (inside the first marker) never comes.
	got := feed(t, p, append(append([]schemas.StreamChunk(nil), in[:5]...), in[6:]...), 0)
	want := []string{"prefix:email the finance", "prefix:email the finance team"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if st := p.Stats(); st.Gaps != 1 {
		t.Errorf("gaps %d, want 1", st.Gaps)
	}
}

func TestLateChunkOfEarlierMessageIsDropped(t *testing.T) {
	p := New(WithDebounce(0))
	first := chunks("s", "m1", "[TOOL: one two three four]", 4)
	second := chunks("s", "m2", "[TOOL: five six seven eight nine]", 4)
	got := feed(t, p, append(append(append([]schemas.StreamChunk(nil), first[:2]...), second[:3]...), append([]schemas.StreamChunk{first[2]}, second[3:]...)...), 0)
	want := []string{"prefix:five six seven", "prefix:five six seven eight"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if st := p.Stats(); st.Stale != 1 {
		t.Errorf("stale %d, want 1", st.Stale)
	}
}

// A message whose output came whole makes no more predictions: its late
// chunks are stale, its held-back ones gone; the next message starts as
// usual, and an output that came before any of its chunks makes them stale.
func TestFinishedMessageMakesNoMorePredictions(t *testing.T) {
	p := New(WithDebounce(0))
	first := chunks("s", "m1", "[TOOL: one two three four]", 4)
	if got := feed(t, p, first[:6], 0); len(got) == 0 {
		t.Fatal("no prediction before the output came")
	}
	p.Finish("s", "m1")
	if got := feed(t, p, first[6:], 0); len(got) != 0 {
		t.Fatalf("predictions after the output came: %q", got)
	}
	if st := p.Stats(); st.Stale != int64(len(first)-6) {
		t.Errorf("stale %d, want %d", st.Stale, len(first)-6)
	}
	p.Finish("s", "m3") // published whole before any of its chunks
	if got := feed(t, p, chunks("s", "m3", "[TOOL: a b c]", 4), 0); len(got) != 0 {
		t.Fatalf("predictions for a message already published: %q", got)
	}
	if got := feed(t, p, chunks("s", "m2", "[TOOL: five six seven eight]", 4), 0); len(got) == 0 {
		t.Fatal("the next message predicts nothing")
	}
	p.Finish("nobody", "m1") // a session never seen: nothing to do
	if p.Sessions() != 1 {
		t.Errorf("sessions %d, want 1", p.Sessions())
	}
}

func TestSessionsExpireAndAreBounded(t *testing.T) {
	p := New(WithTTL(time.Minute), WithMaxSessions(3))
	for i := range 5 {
		if _, err := p.Feed(t0.Add(time.Duration(i)*time.Second), schemas.StreamChunk{SessionID: fmt.Sprint("s", i), MessageID: "m", Delta: "[TOOL: a"}); err != nil {
			t.Fatal(err)
		}
	}
	if p.Sessions() != 3 || p.Stats().Evicted != 2 {
		t.Fatalf("sessions %d evicted %d, want 3 and 2", p.Sessions(), p.Stats().Evicted)
	}
	if n := p.Sweep(t0.Add(time.Minute + 3500*time.Millisecond)); n != 2 || p.Sessions() != 1 {
		t.Errorf("swept %d, left %d; want 2 and 1", n, p.Sessions())
	}
	p.End("s4")
	if p.Sessions() != 0 {
		t.Errorf("left %d after End", p.Sessions())
	}
	if _, err := p.Feed(t0, schemas.StreamChunk{MessageID: "m"}); err == nil {
		t.Error("a chunk without a session was taken")
	}
}
