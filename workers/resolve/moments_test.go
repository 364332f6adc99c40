package resolve

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// The tests' clock: Friday 27 November 2026, 11:00 UTC.
var testNow = time.Date(2026, 11, 27, 11, 0, 0, 0, time.UTC)

func init() { now = func() time.Time { return testNow } }

var calendarEvent = manifest("calendar/create_event", "Create calendar event", `{"type":"object","required":["title","start"],"properties":{
	"title":{"type":"string","minLength":1,"description":"Event title"},
	"start":{"type":"string","format":"date-time","description":"Start time (RFC 3339)"},
	"duration_minutes":{"type":"integer","minimum":5,"maximum":1440,"default":30,"description":"Length in minutes"},
	"attendees":{"type":"array","items":{"type":"string"},"description":"Attendee email addresses"},
	"location":{"type":"string","description":"Room or address"}},"additionalProperties":false}`)

// fillOnly runs every rule on text for m and returns the filler: its
// arguments whether or not the call would resolve.
func fillOnly(t *testing.T, m schemas.Manifest, text string) *filler {
	t.Helper()
	e, err := cached(m)
	if err != nil {
		t.Fatal(err)
	}
	f := newFiller(text, e.schema, e.words)
	f.run(rules, f.freetextTarget(), true)
	return f
}

func TestMoments(t *testing.T) {
	tests := []struct {
		text  string
		start any // nil: not set
	}{
		{"create an event called Kickoff tomorrow at 3pm", "2026-11-28T15:00:00Z"},
		{"schedule Kickoff on Monday at 10am", "2026-11-30T10:00:00Z"},
		{"add an event titled Budget on 2026-12-01 at 14:00 for 45 minutes", "2026-12-01T14:00:00Z"},
		{"put Dentist in my calendar next Tuesday at 9", "2026-12-01T09:00:00Z"},
		{"a meeting called Sync at 5 on Wednesday", "2026-12-02T17:00:00Z"},
		{"lunch called Catch-up on December 3rd at noon", "2026-12-03T12:00:00Z"},
		{"event Retro at 4:30 pm tomorrow", "2026-11-28T16:30:00Z"},
		{"event Launch on 3 January 2027 at 9am", "2027-01-03T09:00:00Z"},
		{"event Planning on Friday at 8am", "2026-12-04T08:00:00Z"}, // today is Friday: the next one
		{"event Standup at 9:15am", "2026-11-28T09:15:00Z"},         // past today: tomorrow's
		{"event Call in 45 minutes", "2026-11-27T11:45:00Z"},
		{"event Retro the day after tomorrow at 10am", "2026-11-29T10:00:00Z"},
		{"event Retro at 10am the day after tomorrow", "2026-11-29T10:00:00Z"},
		// No time of day, no moment: nothing is guessed.
		{"create an event called Kickoff", nil},
		{"create an event called Kickoff with 5 people", nil},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			f := fillOnly(t, calendarEvent, tt.text)
			if got := f.args["start"]; !reflect.DeepEqual(got, tt.start) {
				t.Errorf("start = %v, want %v (args %v)", got, tt.start, f.args)
			}
		})
	}
}

// A day without its time of day, for a tool whose start needs one, is
// said, not run at midnight, and no other parameter takes its words.
func TestMomentDayWithoutTime(t *testing.T) {
	call, err := Resolve(context.Background(), routed("schedule a meeting called Kickoff on Monday"), calendarEvent)
	if err == nil {
		t.Fatalf("resolved to %v; want the start asked for", call.Parameters)
	}
	var me *MissingError
	if !errors.As(err, &me) {
		t.Fatalf("error %v; want a MissingError", err)
	}
	found := false
	for _, u := range me.Unmapped {
		if u.Text == "on Monday" && u.Parameter == "start" {
			found = true
		}
	}
	if !found {
		t.Errorf("unmapped %+v; want \"on Monday\" for start", me.Unmapped)
	}
	if msg := err.Error(); !strings.Contains(msg, `"on Monday" was read for start`) {
		t.Errorf("message %q does not say what was read for start", msg)
	}
}

// The title of the session's first finding: a request's moment is no
// title and no duration.
func TestMomentWordsTakeNoOtherParameter(t *testing.T) {
	for _, text := range []string{
		"schedule a meeting in Berlin on Monday at 10am called Kickoff",
		"put a meeting called Kickoff in my calendar next Tuesday at 9",
	} {
		call, err := Resolve(context.Background(), routed(text), calendarEvent)
		if err != nil {
			t.Errorf("Resolve(%q): %v", text, err)
			continue
		}
		if call.Parameters["title"] != "Kickoff" || call.Parameters["duration_minutes"] != int64(30) {
			t.Errorf("Resolve(%q) = %v; want title Kickoff and the default duration", text, call.Parameters)
		}
	}
}

// A day bounds a search from its midnight: "clips since yesterday".
func TestMomentBounds(t *testing.T) {
	m := manifest("home/view_camera", "View camera", `{"type":"object","properties":{
		"camera":{"type":"string","description":"Camera name"},
		"clips_since":{"type":"string","description":"ISO time; return motion clips recorded since then"}}}`)
	for text, want := range map[string]any{
		"show the clips from the porch camera since yesterday": "2026-11-26T00:00:00Z",
		"porch camera clips since Monday at 8am":               "2026-11-23T08:00:00Z", // a bound looks back
		"show the porch camera":                                nil,
	} {
		f := fillOnly(t, m, text)
		if got := f.args["clips_since"]; !reflect.DeepEqual(got, want) {
			t.Errorf("%q: clips_since = %v, want %v", text, got, want)
		}
	}
}

// A day named from today fills a date property: "modified yesterday"; a
// weekday after since, or with last, is the one gone by.
func TestMomentDays(t *testing.T) {
	m := manifest("p/list", "list_items", `{"type":"object","properties":{"modified_since":{"type":"string"}}}`)
	h := manifest("data/getStockHistory", "Stock history", `{"type":"object","required":["symbol","start"],"properties":{
		"symbol":{"type":"string"},"start":{"type":"string","format":"date","description":"Start date, YYYY-MM-DD"}}}`)
	for _, c := range []struct {
		m          schemas.Manifest
		text, prop string
		want       any
	}{
		{m, "list the items modified yesterday", "modified_since", "2026-11-26"},
		{h, "price history since last Monday", "start", "2026-11-23"},
		{h, "price history since Monday", "start", "2026-11-23"},
		{h, "price history from last Friday", "start", "2026-11-20"},
		{h, "price history starting next Tuesday", "start", "2026-12-01"},
	} {
		if got := fillOnly(t, c.m, c.text).args[c.prop]; got != c.want {
			t.Errorf("%q: %s = %v, want %v", c.text, c.prop, got, c.want)
		}
	}
}

// The request's first word is its verb, even when a parameter has its
// name: "text Mom that …" texts Mom, and "Mom" is no text.
func TestFirstWordIsTheVerb(t *testing.T) {
	m := manifest("home/send_sms", "Send SMS", `{"type":"object","required":["to","text"],"properties":{
		"to":{"type":"string","description":"Phone number or contact name"},"text":{"type":"string","description":"Message body"}}}`)
	call, err := Resolve(context.Background(), routed("text Mom that I'll be late"), m)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]any{"to": "Mom", "text": "I'll be late"}; !reflect.DeepEqual(call.Parameters, want) {
		t.Errorf("parameters %v, want %v", call.Parameters, want)
	}
}

// An output that says its person's time zone (AgentOutput.TimeZone) has
// its moments read there, and a tool's time zone parameter that the
// request leaves open gets it; a zone the request names wins.
func TestMomentsInTheOutputsTimeZone(t *testing.T) {
	clock := manifest("t/clock", "Clock", `{"type":"object","properties":{
		"timezone":{"type":"string","description":"IANA time zone"},
		"format":{"type":"string","default":"%H:%M"}}}`)
	tests := []struct {
		m    schemas.Manifest
		zone string
		text string
		arg  string
		want any
	}{
		// 11:00 UTC is 20:00 in Tokyo: 9am is tomorrow's there.
		{calendarEvent, "Asia/Tokyo", "create an event called Kickoff tomorrow at 9am", "start", "2026-11-28T09:00:00+09:00"},
		{calendarEvent, "Asia/Tokyo", "event Standup at 9:15am", "start", "2026-11-28T09:15:00+09:00"},
		// 11:00 UTC is 06:00 in New York: 9am is still today's there.
		{calendarEvent, "America/New_York", "event Standup at 9:15am", "start", "2026-11-27T09:15:00-05:00"},
		{calendarEvent, "America/New_York", "event Call in 45 minutes", "start", "2026-11-27T06:45:00-05:00"},
		{calendarEvent, "", "event Standup at 9:15am", "start", "2026-11-28T09:15:00Z"},
		{clock, "Europe/Berlin", "what time is it", "timezone", "Europe/Berlin"},
		{clock, "Europe/Berlin", "what time is it in Tokyo", "timezone", "Asia/Tokyo"},
		{clock, "", "what time is it", "timezone", nil},
	}
	for _, tt := range tests {
		t.Run(tt.zone+" "+tt.text, func(t *testing.T) {
			r := routed(tt.text)
			r.Intent.TimeZone = tt.zone
			call, err := Resolve(context.Background(), r, tt.m)
			var missing *MissingError
			if err != nil && !errors.As(err, &missing) {
				t.Fatal(err)
			}
			if got := call.Parameters[tt.arg]; !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("%s = %v, want %v (arguments %v)", tt.arg, got, tt.want, call.Parameters)
			}
		})
	}
}

// TestDayPartsSetTheHalfOfTheDay: a part of the day said around a bare
// hour puts it in that half of the day, for a date-time, a clock time and
// a cron expression alike; am or pm written wins, an hour the part of the
// day does not have is not read, and with no part said the hour is read
// as before.
func TestDayPartsSetTheHalfOfTheDay(t *testing.T) {
	dateTime := manifest("t/nudge", "Nudge", `{"type":"object","required":["note","due"],"properties":{
		"note":{"type":"string"},"due":{"type":"string","format":"date-time"}}}`)
	clock := manifest("t/bell", "Bell", `{"type":"object","required":["time"],"properties":{
		"time":{"type":"string","description":"Clock time, e.g. 06:30"}}}`)
	cron := manifest("t/digest", "Digest", `{"type":"object","required":["cron"],"properties":{
		"cron":{"type":"string","description":"Schedule as a cron expression"}}}`)
	tests := []struct {
		m     schemas.Manifest
		text  string
		param string
		want  any // nil: not set
	}{
		// Against Friday 2026-11-27, 11:00 UTC.
		{dateTime, "nudge me to feed the cat at 6 in the evening", "due", "2026-11-27T18:00:00Z"},
		{dateTime, "nudge me to feed the cat tonight at 9", "due", "2026-11-27T21:00:00Z"},
		{dateTime, "nudge me to feed the cat at 10 tonight", "due", "2026-11-27T22:00:00Z"},
		{dateTime, "nudge me to feed the cat on Sunday evening at 7", "due", "2026-11-29T19:00:00Z"},
		{dateTime, "nudge me to stretch tomorrow morning at 7", "due", "2026-11-28T07:00:00Z"},
		{dateTime, "nudge me to stretch at 5 tomorrow morning", "due", "2026-11-28T05:00:00Z"},
		{dateTime, "nudge me to stretch at 2 in the afternoon", "due", "2026-11-27T14:00:00Z"},
		{dateTime, "nudge me to stretch at 8:45 in the evening", "due", "2026-11-27T20:45:00Z"},
		{dateTime, "nudge me to take out the bins at 11 at night", "due", "2026-11-27T23:00:00Z"},
		// Midnight and the small hours of a night are the next day's.
		{dateTime, "nudge me to take out the bins tonight at 12", "due", "2026-11-28T00:00:00Z"},
		{dateTime, "nudge me to take out the bins on Monday night at 1", "due", "2026-12-01T01:00:00Z"},
		{dateTime, "nudge me to take out the bins at midnight tonight", "due", "2026-11-28T00:00:00Z"},
		// am or pm written wins; an hour the part lacks is not read.
		{dateTime, "nudge me to stretch at 7am tomorrow morning", "due", "2026-11-28T07:00:00Z"},
		{dateTime, "nudge me to stretch tomorrow evening at 6pm", "due", "2026-11-28T18:00:00Z"},
		{dateTime, "nudge me to stretch at 9am in the evening", "due", "2026-11-28T09:00:00Z"},
		{dateTime, "nudge me to stretch at 2 in the evening", "due", nil},
		{dateTime, "nudge me to stretch at 12 in the morning", "due", nil},
		// No part of the day: as before.
		{dateTime, "nudge me to stretch at 8", "due", "2026-11-28T08:00:00Z"},
		{dateTime, "nudge me to stretch at 4", "due", "2026-11-27T16:00:00Z"},
		{dateTime, "nudge me to stretch in the evening", "due", nil},
		// A part of the day not around the hour says nothing of it.
		{dateTime, "the evening class moved; nudge me to stretch at 4", "due", "2026-11-27T16:00:00Z"},
		{dateTime, "nudge me about the morning run at 4", "due", "2026-11-27T16:00:00Z"},
		// Clock times.
		{clock, "ring the bell at 9 in the evening", "time", "21:00"},
		{clock, "ring the bell for 7 in the evening", "time", "19:00"},
		{clock, "ring the bell at 3 in the afternoon", "time", "15:00"},
		{clock, "ring the bell at 4 in the morning", "time", "04:00"},
		{clock, "ring the bell at eight in the evening", "time", "20:00"},
		{clock, "wake me up at 6", "time", "06:00"},
		{clock, "wake me at 5 in the afternoon", "time", "17:00"},
		{clock, "ring the bell at 6", "time", "18:00"},
		{clock, "ring the bell at 08:30 in the evening", "time", "08:30"}, // a 24-hour clock
		{clock, "ring the bell at 20:30 in the evening", "time", "20:30"},
		// A bare number with a part of the day not right after it is no
		// time ("a table for 4 tonight").
		{clock, "ring the bell for 4 tonight", "time", nil},
		// Cron.
		{cron, "send the digest every evening at 8", "cron", "0 20 * * *"},
		{cron, "send the digest every morning at 6", "cron", "0 6 * * *"},
		{cron, "send the digest on weekdays at 5:30 in the afternoon", "cron", "30 17 * * 1-5"},
		{cron, "send the digest every Friday night at 12", "cron", "0 0 * * 6"},
		{cron, "send the digest on weekdays at 1 at night", "cron", "0 1 * * 2,3,4,5,6"},
		{cron, "send the digest every Monday at 8", "cron", "0 8 * * 1"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			f := fillOnly(t, tt.m, tt.text)
			got, ok := f.args[tt.param]
			if tt.want == nil {
				if ok {
					t.Fatalf("%s = %v, want none", tt.param, got)
				}
				return
			}
			if got != tt.want {
				t.Fatalf("%s = %v, want %v", tt.param, got, tt.want)
			}
		})
	}
}

// TestClockPhrases: times of day written in words.
func TestClockPhrases(t *testing.T) {
	clock := manifest("t/bell", "Bell", `{"type":"object","required":["time"],"properties":{
		"time":{"type":"string","description":"Clock time, e.g. 06:30"}}}`)
	tests := []struct {
		text string
		want any // nil: not set
	}{
		{"ring the bell at quarter past 7", "07:15"},
		{"ring the bell at a quarter to 11", "10:45"},
		{"ring the bell for quarter to seven", "06:45"},
		{"ring the bell for half past 8", "08:30"},
		{"ring the bell at half past ten in the evening", "22:30"},
		{"ring the bell at twenty past nine", "09:20"},
		{"ring the bell at 20 minutes to 8", "07:40"},
		{"ring the bell at quarter to 1", "12:45"},
		{"ring the bell at half 9", "09:30"},
		{"wake me up at quarter to five", "04:45"},
		// Ranges and halves that are no times.
		{"ring the bell between 3 to 5 times", nil},
		{"ring the bell ten to twelve times", nil},
		{"ring the bell for half the day", nil},
		{"ring the bell half 9", nil}, // without "at", "half 9" says no time
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			f := fillOnly(t, clock, tt.text)
			got, ok := f.args["time"]
			if tt.want == nil {
				if s, _ := got.(string); ok && clockWord.MatchString(strings.ReplaceAll(s, ":", "")) {
					t.Fatalf("time = %v, want none", got)
				}
				return
			}
			if got != tt.want {
				t.Fatalf("time = %v, want %v", got, tt.want)
			}
		})
	}
}

// A description that asks for a date and a time makes its property a
// date-time whatever its name: it gets the whole moment, and the words
// of the time are used, not left in another value. A description of a
// date alone still takes only the day.
func TestDateTimeDescriptions(t *testing.T) {
	tool := func(name, desc string) schemas.Manifest {
		return manifest("p/note", "Schedule note", `{"type":"object","required":["note"],"properties":{
			"note":{"type":"string","description":"What to be told"},
			"`+name+`":{"type":"string","description":"`+desc+`"}}}`)
	}
	for _, c := range []struct {
		m          schemas.Manifest
		text, prop string
		want       any
	}{
		{tool("date", "Date and time, ISO 8601 or natural language"), "ping me to feed the fish the day after tomorrow at 6pm", "date", "2026-11-29T18:00:00Z"},
		{tool("date", "Date and time of the alert"), "ping me to feed the fish tomorrow at 7:30", "date", "2026-11-28T07:30:00Z"},
		{tool("schedule", "Datetime to send it"), "ping me to stretch at 4pm", "schedule", "2026-11-27T16:00:00Z"},
		{tool("fire", "Date/time it goes off"), "ping me on Sunday at 9am to call Grandma", "fire", "2026-11-29T09:00:00Z"},
		{tool("day", "The date-time, ISO 8601"), "ping me next Tuesday at noon to renew the permit", "day", "2026-12-01T12:00:00Z"},
		// A day alone is said, not set to midnight.
		{tool("date", "Date and time of the alert"), "ping me on Monday to pay rent", "date", nil},
		// Negatives: a date is a date.
		{tool("date", "The date, YYYY-MM-DD"), "ping me to feed the fish tomorrow at 6pm", "date", "2026-11-28"},
		{tool("day", "Which day"), "ping me to feed the fish on Monday", "day", "2026-11-30"},
	} {
		f := fillOnly(t, c.m, c.text)
		if got := f.args[c.prop]; got != c.want {
			t.Errorf("%q: %s = %v, want %v (args %v)", c.text, c.prop, got, c.want, f.args)
		}
		if c.want != nil && strings.Contains(c.want.(string), "T") {
			if note, _ := f.args["note"].(string); strings.Contains(note, " at ") || strings.Contains(note, "pm") {
				t.Errorf("%q: the time's words left in note %q", c.text, note)
			}
		}
	}
}

// TestWhenTakesTheDay: a time with its day for a "when" that is no clock
// time is the whole moment ("at 6am tomorrow" had given the ride 06:00 and
// dropped tomorrow); a clock time keeps the hour alone.
func TestWhenTakesTheDay(t *testing.T) {
	ride := manifest("t/ride", "Book a ride", `{"type":"object","required":["dropoff"],"properties":{
		"dropoff":{"type":"string","description":"Destination address"},
		"when":{"type":"string","description":"Pickup time; now if omitted"}}}`)
	wake := manifest("t/wake", "Wake-up call", `{"type":"object","required":["time"],"properties":{
		"time":{"type":"string","description":"Clock time, e.g. 07:15"}}}`)
	checkGuesses(t, []guessCase{
		{m: ride, text: "a ride to the airport at 6am tomorrow", want: M{"dropoff": "the airport", "when": "2026-11-28T06:00:00Z"}},
		{m: ride, text: "a ride to the airport on Monday at 5:30pm", want: M{"dropoff": "the airport", "when": "2026-11-30T17:30:00Z"}},
		{m: ride, text: "a ride to the airport at 6pm", want: M{"dropoff": "the airport", "when": "18:00"}},
		{m: wake, text: "wake me at 6:30 tomorrow", want: M{"time": "06:30"}},
	})
}

// TestRecurrenceStartsOnItsDay: a time of day in a recurrence by weekdays
// first happens on one of them, not on the next day whatever it is (it
// is Friday 11:00 in these tests).
func TestRecurrenceStartsOnItsDay(t *testing.T) {
	reminder := manifest("t/reminder", "Reminder", `{"type":"object","required":["message"],"properties":{
		"message":{"type":"string"},"when":{"type":"string","format":"date-time"},
		"repeat":{"type":"string","description":"Days it repeats, e.g. weekdays"}}}`)
	checkGuesses(t, []guessCase{
		{"a weekday", reminder, "remind me every Monday at 9 to send the report", M{"message": "send the report", "when": "2026-11-30T09:00:00Z", "repeat": "Monday"}},
		{"today's is past", reminder, "remind me on weekdays at 8 to stretch", M{"message": "stretch", "when": "2026-11-30T08:00:00Z", "repeat": "weekdays"}},
		{"today's is to come", reminder, "remind me on Fridays at 5pm to log hours", M{"message": "log hours", "when": "2026-11-27T17:00:00Z", "repeat": "Friday"}},
		{"every day", reminder, "remind me every day at 9 to drink water", M{"message": "drink water", "when": "2026-11-28T09:00:00Z", "repeat": "daily"}},
	})
}
