package predict

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toolyard/toolyard/schemas"
)

// fuzzPieces are what a fuzzed stream is written with: markers, their
// ends, sentence ends, code, calls, blank lines, and plain words, so that
// short inputs reach every state of the scanner.
var fuzzPieces = []string{
	"[TOOL: ", "]", "find ", "the ", "files?", ".", " ", "\n\n", "`", "```\n",
	"<tool_call name=\"a/b\">", "</tool_call>", "[TOOL: count [TOOL: lines] of it]", "é", "[", "TOOL:",
}

// FuzzFeed drives a small predictor with arbitrary streams of several
// sessions and messages: chunks out of order, duplicated, of messages
// already over, with gaps, sessions ended and swept. The stage must never
// panic (Feed errs only on a chunk without a session), the number of
// sessions and the chunks held back stay bounded, and every prediction is
// of a session that sent the chunk, from a known source, of bounded
// length, and valid UTF-8 when the stream is.
func FuzzFeed(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	f.Add([]byte{0x10, 0x21, 0x32, 0x43, 0x04, 0x15, 0xf0, 0xf1, 0xf2})
	f.Add([]byte("[TOOL: find the files?] and more"))
	const (
		maxSessions = 2
		maxPending  = 4
		maxIntent   = 32
	)
	f.Fuzz(func(t *testing.T, ops []byte) {
		p := New(WithMaxSessions(maxSessions), WithMaxPending(maxPending), WithMaxIntentBytes(maxIntent),
			WithMinWords(1), WithDebounce(0), WithTTL(time.Minute))
		now := t0
		sessions := []string{"s0", "s1", "s2"}
		seq := map[string]uint64{}
		for i, op := range ops {
			session := sessions[int(op)%len(sessions)]
			message := []string{"m0", "m1"}[int(op>>2)%2]
			switch op >> 4 {
			case 0xf: // the session's output was published, or it ended, or time passed
				switch op & 3 {
				case 0:
					p.Finish(session, message)
				case 1:
					p.End(session)
				default:
					now = now.Add(2 * time.Minute)
					p.Sweep(now)
				}
				continue
			case 0xe: // a chunk without a session
				if _, err := p.Feed(now, schemas.StreamChunk{MessageID: message, Delta: "x"}); err == nil {
					t.Fatal("a chunk without a session id was taken")
				}
				continue
			}
			key := session + "/" + message
			s := seq[key]
			switch op >> 4 & 3 {
			case 1: // a duplicate or a late chunk
				s = s / 2
			case 2: // a chunk ahead of its turn
				s += uint64(op&3) + 1
			}
			seq[key] = max(seq[key], s+1)
			delta := fuzzPieces[(int(op)+i)%len(fuzzPieces)]
			ps, err := p.Feed(now, schemas.StreamChunk{SessionID: session, MessageID: message, Seq: s, Delta: delta})
			if err != nil {
				t.Fatalf("op %d: %v", i, err)
			}
			for _, pr := range ps {
				if pr.SessionID != session {
					t.Fatalf("op %d: a chunk of %s predicted for %s", i, session, pr.SessionID)
				}
				switch pr.Source {
				case SourcePrefix, SourceEnd, SourceContext, SourceNext:
				default:
					t.Fatalf("op %d: unknown source %q", i, pr.Source)
				}
				if strings.TrimSpace(pr.Text) == "" || len(pr.Text) > maxIntent {
					t.Fatalf("op %d: prediction text %q (%d bytes; at most %d)", i, pr.Text, len(pr.Text), maxIntent)
				}
				if !utf8.ValidString(pr.Text) {
					t.Fatalf("op %d: prediction text %q is not UTF-8", i, pr.Text)
				}
			}
			if n := p.Sessions(); n > maxSessions {
				t.Fatalf("op %d: %d sessions followed; at most %d", i, n, maxSessions)
			}
			for e := p.lru.Front(); e != nil; e = e.Next() {
				if st := e.Value.(*sessionState); len(st.pending) > maxPending {
					t.Fatalf("op %d: session %s holds %d chunks back; at most %d", i, st.id, len(st.pending), maxPending)
				}
			}
		}
	})
}
