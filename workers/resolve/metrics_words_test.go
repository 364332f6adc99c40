package resolve

import (
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

var (
	// kpiTool reads a metric by name; episodes lists 'next' as a value.
	kpiTool = manifest("t/kpi", "KPI", `{"type":"object","required":["metric"],"properties":{
		"metric":{"type":"string","description":"Metric name"},
		"grain":{"type":"string","enum":["day","week","month"]}}}`)
	episodes = manifest("t/podcasts", "Podcasts", `{"type":"object","required":["show"],"properties":{
		"show":{"type":"string","description":"Show name"},
		"episode":{"type":"string","description":"Episode title or 'latest' or 'next'"}}}`)
)

// TestSpanWordsAndKPI: "the past N days" gives no text value; "<words>
// KPI" names the metric; a description that lists "next" keeps it.
func TestSpanWordsAndKPI(t *testing.T) {
	// A description that lists the word as a value keeps it.
	for v, want := range map[string]bool{"past": true, "the last": true, "next": true, "last night": false, "Pastor": false} {
		if got := timeWordsOnly(v); got != want {
			t.Errorf("timeWordsOnly(%q) = %v", v, got)
		}
	}
	if e := mustSchema(t, episodes).prop("episode"); !describesWord(e, "next") {
		t.Errorf("episode's description lists next")
	}
	checkGuesses(t, []guessCase{
		{"", kpiTool, "churn for the past 14 days", M{"grain": "day"}},
		{"", kpiTool, "show me the next quarter", M{}},
		{"", kpiTool, "chart the monthly churn KPI for the last year", M{"metric": "monthly churn"}},
		{"", kpiTool, "plot the refunds KPI by week", M{"metric": "refunds", "grain": "week"}},
		// Negatives: a metric named plainly; a described 'next'.
		{"", kpiTool, "the metric Net Revenue by day", M{"metric": "Net Revenue", "grain": "day"}},
	})
}

func mustSchema(t *testing.T, m schemas.Manifest) *toolSchema {
	t.Helper()
	s, err := schemaFor(m)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
