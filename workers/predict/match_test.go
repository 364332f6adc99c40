package predict

import (
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/models/bundle"
	"github.com/toolyard/toolyard/workers/route"
)

// bagOfWords is a toy vectorizer for the match rule's tests: one dimension
// per word of a small vocabulary.
func bagOfWords(text string) []float32 {
	vocab := []string{"resize", "photo", "image", "to", "half", "size", "the", "delete", "backup", "width"}
	v := make([]float32, len(vocab))
	for _, w := range strings.Fields(strings.ToLower(text)) {
		for i, x := range vocab {
			if w == x {
				v[i]++
			}
		}
	}
	return v
}

func TestMatchRule(t *testing.T) {
	e := func(text, reg, model string) Entry {
		sum, n := Sum(text)
		return Entry{TextSum: sum, Words: n, Registry: reg, Model: model, Candidates: []schemas.Candidate{{ToolID: text}}}
	}
	loose := Rule{MinCosine: MinCosine, MaxMissingWords: -1}
	cases := []struct {
		name    string
		rule    Rule
		real    string
		entries []Entry
		want    string // the entry text picked, "" for a miss
	}{
		{"same words, other spaces", loose, "Resize  the photo", []Entry{e("Resize the photo", "r1", "m1")}, "Resize the photo"},
		{"other case: other words", loose, "Resize the photo", []Entry{e("resize the PHOTO", "r1", "m1")}, ""},
		{"close prefix", loose, "resize the photo to half size", []Entry{e("resize the photo to half", "r1", "m1")}, "resize the photo to half"},
		{"too far", loose, "resize the photo to half size", []Entry{e("delete the backup", "r1", "m1")}, ""},
		{"other registry version", loose, "resize the photo", []Entry{e("resize the photo", "r0", "m1")}, ""},
		{"other model version", loose, "resize the photo", []Entry{e("resize the photo", "r1", "m0")}, ""},
		{"closest wins", loose, "resize the photo to half size", []Entry{e("resize the photo", "r1", "m1"), e("resize the photo to half", "r1", "m1"), e("resize", "r1", "m1")}, "resize the photo to half"},
		{"default: exact words", DefaultRule(), "resize the photo to half size", []Entry{e("resize the photo to half", "r1", "m1"), e("resize the photo to half size", "r1", "m1")}, "resize the photo to half size"},
		{"default: a missing word is a miss", DefaultRule(), "resize the photo to half size", []Entry{e("resize the photo to half", "r1", "m1")}, ""},
		{"default: case counts for the words", DefaultRule(), "Resize the photo", []Entry{e("resize the photo", "r1", "m1")}, ""},
		{"one missing word allowed", Rule{MinCosine: 0.8, MaxMissingWords: 1}, "resize the photo to half size", []Entry{e("resize the photo to half", "r1", "m1"), e("resize the photo to", "r1", "m1")}, "resize the photo to half"},
		{"not a prefix", Rule{MinCosine: 0.8, MaxMissingWords: 3}, "resize the photo to half size", []Entry{e("resize the image to half", "r1", "m1")}, ""},
		{"a cosine below the contract's is raised to it", Rule{MinCosine: 0.1, MaxMissingWords: -1}, "resize the photo to half size", []Entry{e("delete the backup", "r1", "m1")}, ""},
		{"no entries", loose, "resize the photo", nil, ""},
		{"nothing to embed", loose, "zzz qqq", []Entry{e("resize", "r1", "m1")}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			i, cos := Match(c.real, c.entries, "r1", "m1", bagOfWords, c.rule)
			got := ""
			if i >= 0 {
				got = c.entries[i].Candidates[0].ToolID
			}
			if got != c.want {
				t.Fatalf("got %q (cos %.2f), want %q", got, cos, c.want)
			}
			if i >= 0 && cos < MinCosine {
				t.Errorf("matched at cosine %.2f", cos)
			}
		})
	}
}

func TestSlotKeepsNewestAndReplacesSameText(t *testing.T) {
	var s Slot
	for i := range MaxEntries + 3 {
		sum, n := Sum(strings.Repeat("w ", i+1))
		s.Add(Entry{TextSum: sum, Words: n, Registry: "r", Model: "m"})
	}
	sum, n := Sum(strings.Repeat("w ", MaxEntries+3))
	s.Add(Entry{TextSum: sum, Words: n, Registry: "r", Model: "m", Source: SourceContext})
	if len(s.Entries) != MaxEntries {
		t.Fatalf("%d entries, want %d", len(s.Entries), MaxEntries)
	}
	if last := s.Entries[len(s.Entries)-1]; last.Source != SourceContext || s.Entries[0].Words != 4 {
		t.Errorf("entries %+v", s.Entries)
	}
}

func TestJudgeAndTally(t *testing.T) {
	th := route.DefaultThresholds()
	c := func(id string, conf float64) []schemas.Candidate {
		return []schemas.Candidate{{ToolID: id, Confidence: conf}, {ToolID: "other", Confidence: 0.01}}
	}
	cases := []struct {
		name              string
		prefetched, fresh []schemas.Candidate
		wrong             bool
	}{
		{"same tool same tier", c("a", 0.9), c("a", 0.95), false},
		{"same tool other tier", c("a", 0.9), c("a", 0.6), true},
		{"other tool", c("a", 0.9), c("b", 0.9), true},
		{"both empty", nil, nil, false},
		{"fresh empty", c("a", 0.2), nil, true},
		{"weak both", c("a", 0.31), c("a", 0.49), false},
	}
	var tally Tally
	wrongs := 0
	for _, k := range cases {
		w := Judge(k.prefetched, k.fresh, th)
		if w != k.wrong {
			t.Errorf("%s: wrong %v, want %v", k.name, w, k.wrong)
		}
		tally.Hit(10 * time.Millisecond)
		tally.Check(w)
		if w {
			wrongs++
		}
	}
	tally.Misses.Add(int64(len(cases)))
	if tally.WrongHits.Load() != int64(wrongs) || tally.WrongHitRate() != float64(wrongs)/float64(len(cases)) || tally.HitRate() != 0.5 {
		t.Errorf("tally: wrong %d, rate %.2f, hit rate %.2f", tally.WrongHits.Load(), tally.WrongHitRate(), tally.HitRate())
	}
	if tally.Saved() != time.Duration(len(cases))*10*time.Millisecond {
		t.Errorf("saved %v", tally.Saved())
	}
}

func TestTemplatePredictions(t *testing.T) {
	tpl := &bundle.Templates{Format: bundle.TemplatesFormat,
		Next: map[string][]bundle.Count{"calendar": {{Tool: "mail", Count: 6}, {Tool: "maps", Count: 2}}, "rare": {{Tool: "mail", Count: 1}}},
		Context: map[string][]bundle.Count{
			"invoice": {{Tool: "billing", Count: 5}},
			"meeting": {{Tool: "calendar", Count: 4}, {Tool: "billing", Count: 1}},
		}}
	phr := Phrasings(&discover.Usage{Intents: []discover.LearnedIntent{
		{Tool: "mail", Text: "send it by mail"}, {Tool: "mail", Text: "mail"}, {Tool: "mail", Text: "mail the summary to the team lead"},
		{Tool: "billing", Text: "open the invoice"},
	}})
	cases := []struct {
		name, last, text string
		want             []string
	}{
		{"next after calendar", "calendar", "Done. [TOOL: x", []string{"next:mail:send it by mail"}},
		{"next needs enough history", "rare", "Done. [TOOL: x", nil},
		{"context words", "", "About the invoice you asked for [TOOL: x", []string{"context:billing:open the invoice"}},
		{"context without phrasing", "", "Your meeting, meeting [TOOL: x", nil},
		{"both, one per tool", "calendar", "Then the invoice: [TOOL: x", []string{"next:mail:send it by mail", "context:billing:open the invoice"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := New(WithTemplates(tpl, phr))
			if c.last != "" {
				p.Observe(t0, "s", c.last)
			}
			ps, err := p.Feed(t0, schemas.StreamChunk{SessionID: "s", MessageID: "m", Delta: c.text})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, pr := range ps {
				got = append(got, pr.Source+":"+pr.Tool+":"+pr.Text)
				if pr.Confidence <= 0 || pr.Confidence > 1 {
					t.Errorf("confidence %v", pr.Confidence)
				}
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
