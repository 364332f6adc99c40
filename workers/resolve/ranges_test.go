package resolve

import (
	"testing"
	"time"
)

var (
	// rangeReport takes a period as start and end dates; rangeSince as a
	// start only; rangeStamps as date-times; rangeDue has one date that is
	// no bound of a range.
	rangeReport = manifest("t/report", "Sales report", `{"type":"object","properties":{
		"region":{"type":"string","description":"Sales region"},
		"start":{"type":"string","format":"date","description":"First day"},
		"end":{"type":"string","format":"date","description":"Last day"},
		"grain":{"type":"string","enum":["day","week","month","quarter"]}}}`)
	rangeSince = manifest("t/cohorts", "Cohorts", `{"type":"object","properties":{
		"from_date":{"type":"string","description":"First cohort, YYYY-MM-DD"},
		"periods":{"type":"integer"}}}`)
	rangeStamps = manifest("t/logs", "Search logs", `{"type":"object","properties":{
		"query":{"type":"string"},
		"startTime":{"type":"string","format":"date-time"},
		"endTime":{"type":"string","format":"date-time"}}}`)
	rangeModified = manifest("t/items", "List items", `{"type":"object","properties":{"modified_since":{"type":"string"}}}`)
	rangeDue      = manifest("t/task", "Task", `{"type":"object","properties":{
		"title":{"type":"string"},
		"due":{"type":"string","format":"date","description":"Due date"}}}`)
)

// TestDateRanges: a period fills the bounds of a range as its first and
// last days (the tests' clock: Friday 27 November 2026, UTC).
func TestDateRanges(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"rolling days", rangeReport, "west region sales over the last 90 days", M{"region": "west", "start": "2026-08-29", "end": "2026-11-27"}},
		{"rolling weeks, a number in words", rangeReport, "sales for the past two weeks", M{"start": "2026-11-13", "end": "2026-11-27"}},
		{"the past week", rangeReport, "sales in the past week", M{"start": "2026-11-20", "end": "2026-11-27"}},
		{"last week is the calendar week before (Monday to Sunday)", rangeReport, "sales last week", M{"start": "2026-11-16", "end": "2026-11-22"}},
		{"this month", rangeReport, "sales this month", M{"start": "2026-11-01", "end": "2026-11-30"}},
		{"last quarter is a period, not a grain", rangeReport, "sales last quarter", M{"start": "2026-07-01", "end": "2026-09-30"}},
		{"a grain beside a period", rangeReport, "sales by week for the last 8 weeks", M{"grain": "week", "start": "2026-10-02", "end": "2026-11-27"}},
		{"next month", rangeReport, "planned sales next month", M{"start": "2026-12-01", "end": "2026-12-31"}},
		{"last year", rangeReport, "sales last year", M{"start": "2025-01-01", "end": "2025-12-31"}},
		{"year to date", rangeReport, "sales year to date", M{"start": "2026-01-01", "end": "2026-11-27"}},
		{"a month and its year", rangeReport, "sales for March 2024", M{"start": "2024-03-01", "end": "2024-03-31"}},
		{"a leap February", rangeReport, "sales in February 2024", M{"start": "2024-02-01", "end": "2024-02-29"}},
		{"a month without a year is the latest begun", rangeReport, "sales in December", M{"start": "2025-12-01", "end": "2025-12-31"}},
		{"a quarter", rangeReport, "sales in Q3 2025", M{"start": "2025-07-01", "end": "2025-09-30"}},
		{"a year after a lead word", rangeReport, "sales for 2023", M{"start": "2023-01-01", "end": "2023-12-31"}},
		{"since: the start only", rangeReport, "sales since June", M{"start": "2026-06-01"}},
		{"until: the end only", rangeReport, "sales until March 2026", M{"end": "2026-03-31"}},
		{"from one month to another", rangeReport, "sales from January to March", M{"start": "2026-01-01", "end": "2026-03-31"}},
		{"from a period alone is the period", rangeReport, "sales figures from Q2 2025", M{"start": "2025-04-01", "end": "2025-06-30"}},
		{"a start alone", rangeSince, "cohorts starting January 2024 for 6 periods", M{"from_date": "2024-01-01", "periods": int64(6)}},
		{"a bound named since", rangeModified, "list the items modified since last week", M{"modified_since": "2026-11-16"}},
		// Not periods, or no range to fill.
		{"a date is a day, not a month", rangeReport, "sales on March 3, 2025", M{"start": "2025-03-03"}},
		{"may is a verb", rangeReport, "you may show the sales", M{}},
		{"a bare number is no year", rangeReport, "top 2023 sales", M{}},
		{"a tool without bounds", rangeDue, "a task due last week called Taxes", M{"title": "Taxes"}},
		{"date-times are an event's bounds", rangeStamps, "find errors over the last 90 days", M{}},
	})
}

// TestSpanToComeIsNoRange: "the next 3 weeks" is a span to come, which
// has no calendar bounds to give.
func TestSpanToComeIsNoRange(t *testing.T) {
	args := fillOnly(t, rangeReport, "sales over the next 3 weeks").args
	if args["start"] != nil || args["end"] != nil {
		t.Errorf("the next 3 weeks filled start=%v end=%v, want neither", args["start"], args["end"])
	}
}

// TestCalendarPeriod: weeks start on Monday, months and quarters end on
// their last day, across a year's end.
func TestCalendarPeriod(t *testing.T) {
	sunday := time.Date(2027, 1, 3, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		unit     string
		n        int
		from, to string
	}{
		{"week", 0, "2026-12-28", "2027-01-03"},
		{"week", -1, "2026-12-21", "2026-12-27"},
		{"month", -1, "2026-12-01", "2026-12-31"},
		{"quarter", -1, "2026-10-01", "2026-12-31"},
		{"quarter", 1, "2027-04-01", "2027-06-30"},
		{"year", -1, "2026-01-01", "2026-12-31"},
	} {
		from, to := calendarPeriod(sunday, c.unit, c.n)
		if got := from.Format("2006-01-02") + " " + to.Format("2006-01-02"); got != c.from+" "+c.to {
			t.Errorf("calendarPeriod(%s, %d) = %s, want %s %s", c.unit, c.n, got, c.from, c.to)
		}
	}
}
