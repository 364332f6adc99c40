package discover

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

func TestSearchFindsTheRightTool(t *testing.T) {
	e := newFixture(t)
	tests := []struct{ query, want string }{
		{"run the google maps scraper for tech companies, limit 50", "maps/google_maps_scraper"},
		{"what's the weather forecast for Lisbon this weekend", "weather/getForecast"},
		{"open an issue in the toolyard repo about the flaky test", "github/create_issue"},
		{"email the quarterly numbers to alice@example.com", "mail/send_email"},
		{"translate 'good morning' into Japanese", "translate/translate_text"},
		{"which processes use the most memory", "system/list_processes"},
		{"how many orders did we get last week", "db/run_sql_query"},
	}
	for _, tt := range tests {
		cs, err := e.Search(context.Background(), tt.query, 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 0 || cs[0].ToolID != tt.want {
			t.Errorf("%q: got %v, want %s first", tt.query, ids(cs), tt.want)
		}
	}
}

func TestCandidateFields(t *testing.T) {
	e := newFixture(t)
	cs, err := e.Search(context.Background(), "scrape google maps for dentists", 1, nil)
	if err != nil || len(cs) != 1 {
		t.Fatalf("Search = %v, %v", ids(cs), err)
	}
	c := cs[0]
	if c.ToolID != "maps/google_maps_scraper" || c.Name != "google_maps_scraper" || c.Server != "maps" ||
		!strings.HasPrefix(c.Description, "Scrape business") || !slices.Equal(c.Keywords, []string{"places", "leads"}) ||
		c.MatchType != schemas.MatchKeyword || c.Score <= 0 || c.Confidence <= 0 {
		t.Errorf("candidate %+v", c)
	}
}

func TestScope(t *testing.T) {
	e := newFixture(t)
	ctx := context.Background()
	const q = "create a new issue or list pull requests or send an email"
	all, _ := e.Search(ctx, q, 10, nil)
	score := map[string]float64{}
	for _, c := range all {
		score[c.ToolID] = c.Score
	}
	tests := []struct {
		scope []string
		allow func(string) bool
	}{
		{[]string{"github"}, func(id string) bool { return strings.HasPrefix(id, "github/") }},
		{[]string{"mail/send_email"}, func(id string) bool { return id == "mail/send_email" }},
		{[]string{"mail", "github/create_issue"}, func(id string) bool { return id == "mail/send_email" || id == "github/create_issue" }},
		{[]string{"nothing-here"}, func(string) bool { return false }},
	}
	for _, tt := range tests {
		cs, err := e.Search(ctx, q, 10, tt.scope)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, c := range all {
			if tt.allow(c.ToolID) {
				want = append(want, c.ToolID)
			}
		}
		got := ids(cs)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("scope %v: got %v, want %v", tt.scope, got, want)
		}
		// Scope filters; it does not change how a tool scores.
		for _, c := range cs {
			if c.Score != score[c.ToolID] {
				t.Errorf("scope %v: %s scored %v, unscoped %v", tt.scope, c.ToolID, c.Score, score[c.ToolID])
			}
		}
	}
	// A tool named outright but out of scope stays out.
	cs, _ := e.Search(ctx, "disk usage of /var", 5, []string{"github"})
	if slices.Contains(ids(cs), "system/disk_usage") {
		t.Errorf("out-of-scope mentioned tool returned: %v", ids(cs))
	}
}

func TestAnyTextIsAQuery(t *testing.T) {
	e := newFixture(t)
	long := strings.Join(syntheticQueries(300), ". ") // ~11 KB of assorted requests
	tests := []struct {
		name, query string
		wantSome    bool
	}{
		{"empty", "", false},
		{"spaces", "   \t\n", false},
		{"stars", "***", false},
		{"unbalanced quote", `"unbalanced`, false},
		{"query syntax", "+-:", false},
		{"syntax around words", `+disk -usage title:"x AND (`, true},
		{"only stop words", "could you please do it for me", false},
		{"unknown words", "zyxxy plorf", false},
		{"japanese", "東京の天気を教えて", false},
		{"russian", "прогноз погоды", false},
		{"invalid utf-8", "disk \xff\xfe usage", true},
		{"10 KB", long, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			cs, err := e.Search(context.Background(), tt.query, 5, nil)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if cs == nil {
				t.Error("nil candidates; want an empty list")
			}
			if got := len(cs) > 0; got != tt.wantSome {
				t.Errorf("got %v, want candidates: %v", ids(cs), tt.wantSome)
			}
			for _, c := range cs {
				if c.Confidence < 0 || c.Confidence > 1 || math.IsNaN(c.Confidence) {
					t.Errorf("confidence %v of %s out of [0,1]", c.Confidence, c.ToolID)
				}
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
	// 10 KB of assorted requests matches many words loosely; it must not be
	// taken for a precise request.
	if cs, _ := e.Search(context.Background(), long, 5, nil); len(cs) > 0 && cs[0].Confidence >= 0.5 {
		t.Errorf("10 KB text: top confidence %v, want < 0.5", cs[0].Confidence)
	}
}

func TestSearchK(t *testing.T) {
	e := newFixture(t, WithTopK(2))
	ctx := context.Background()
	const q = "list create send run translate get report"
	for k, want := range map[int]int{1: 1, 3: 3, 0: 2, -1: 2} {
		cs, err := e.Search(ctx, q, k, nil)
		if err != nil || len(cs) != want {
			t.Errorf("k=%d: %d candidates (%v), want %d", k, len(cs), err, want)
		}
	}
}

func TestSearchCancelled(t *testing.T) {
	e := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Search(ctx, "disk usage", 3, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	_, err := e.Discover(ctx, schemas.Intent{ID: "i-1", Text: "disk usage"})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "i-1") {
		t.Errorf("Discover err = %v, want context.Canceled naming the intent", err)
	}
}

func TestDiscover(t *testing.T) {
	e := newFixture(t, WithTopK(3))
	in := schemas.Intent{ID: "i-1", SessionID: "s", MessageID: "m", Text: "list open pull requests of toolyard", Scope: []string{"github"}}
	out, err := e.Discover(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if out.V != schemas.Version || out.Intent.ID != "i-1" || len(out.Candidates) == 0 || len(out.Candidates) > 3 {
		t.Fatalf("Discover = %+v", out)
	}
	if out.Candidates[0].ToolID != "github/list_pull_requests" {
		t.Errorf("top %v", ids(out.Candidates))
	}
	for _, c := range out.Candidates {
		if c.Server != "github" {
			t.Errorf("out-of-scope candidate %s", c.ToolID)
		}
	}
	if err := schemas.ValidateValue(schemas.KindCandidates, out); err != nil {
		t.Errorf("Discover output breaks the contract: %v", err)
	}
	none, err := e.Discover(context.Background(), schemas.Intent{ID: "i-2", SessionID: "s", MessageID: "m", Text: "***"})
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.ValidateValue(schemas.KindCandidates, none); err != nil {
		t.Errorf("empty Discover output breaks the contract: %v", err)
	}
}

func TestSearchIsReproducible(t *testing.T) {
	// Synthetic tools share most of their words, so many score exactly
	// alike; bleve's internal order of equal scores differs between two
	// builds of the same registry, the answers must not.
	tools := syntheticTools(1500)
	a, err := New(tools)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := New(tools)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	for _, q := range syntheticQueries(40) {
		x, err := a.Search(ctx, q, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		y, err := b.Search(ctx, q, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ids(x), ids(y)) {
			t.Fatalf("%q: %v, then %v", q, ids(x), ids(y))
		}
		for i := range x {
			if x[i].Confidence != y[i].Confidence {
				t.Fatalf("%q: %s confidence %v, then %v", q, x[i].ToolID, x[i].Confidence, y[i].Confidence)
			}
		}
	}
}
