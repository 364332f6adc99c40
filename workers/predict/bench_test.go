package predict

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// BenchmarkFeed is the predict stage's core throughput: chunks of a token
// each, from 1000 sessions interleaved, each writing a sentence and an
// intent. The target is 20k chunks/s on this 2-core machine.
func BenchmarkFeed(b *testing.B) {
	const sessions = 1000
	toks := Tokens("Sure, I can help with that. Let me look it up first. [TOOL: find the cheapest train from Lyon to Turin next Friday morning?] Done.")
	ids := make([]string, sessions)
	for i := range ids {
		ids[i] = fmt.Sprint("s", i)
	}
	p := New()
	now := time.Now()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		s, t := i%sessions, i/sessions
		msg := t / len(toks)
		if _, err := p.Feed(now, schemas.StreamChunk{SessionID: ids[s], MessageID: fmt.Sprint("m", msg), Seq: uint64(t % len(toks)), Delta: toks[t%len(toks)]}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "chunks/s")
}

// TestMemoryIsBoundedPerSession: a session that writes a huge marker and
// never closes it, or sends chunks far ahead, holds a bounded amount.
func TestMemoryIsBoundedPerSession(t *testing.T) {
	p := New(WithMaxIntentBytes(100), WithMaxPending(8))
	if _, err := p.Feed(t0, schemas.StreamChunk{SessionID: "s", MessageID: "m", Seq: 0, Delta: "[TOOL: "}); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 5000; i++ {
		if _, err := p.Feed(t0, schemas.StreamChunk{SessionID: "s", MessageID: "m", Seq: uint64(i), Delta: "word "}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 10000; i < 10100; i += 2 { // every other chunk missing
		if _, err := p.Feed(t0, schemas.StreamChunk{SessionID: "s", MessageID: "m", Seq: uint64(i), Delta: "far ahead "}); err != nil {
			t.Fatal(err)
		}
	}
	s := p.sessions["s"].Value.(*sessionState)
	if len(s.sc.intent) > 100 || len(s.pending) > 9 || len(s.sc.before) > 32 {
		t.Errorf("intent %d bytes, %d chunks held back, %d words before", len(s.sc.intent), len(s.pending), len(s.sc.before))
	}
}

// BenchmarkMatchMiss is what a miss costs the discover stage beside its KV
// get: the match rule over a full slot of entries, none of them for the
// real intent. The bound is 1 ms at p99; eval prefetch reports
// the same lookup timed inside a loaded simulation, where its p99 is the
// scheduler's more than the rule's.
func BenchmarkMatchMiss(b *testing.B) {
	long := strings.Repeat("compare the quarterly revenue of the three regions and flag any month that fell more than ten percent. ", 8)
	for _, c := range []struct{ name, real string }{
		{"short", "how long has this machine been running?"},
		{"long", long},
	} {
		entries := make([]Entry, MaxEntries)
		for i := range entries {
			sum, words := Sum(fmt.Sprintf("%s variant %d", c.real, i))
			entries[i] = Entry{TextSum: sum, Words: words, Registry: "r", Model: "m"}
		}
		vec := func(string) []float32 { b.Fatal("an exact-words miss needs no vectors"); return nil }
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if i, _ := Match(c.real, entries, "r", "m", vec, DefaultRule()); i >= 0 {
					b.Fatal("matched")
				}
			}
		})
	}
}
