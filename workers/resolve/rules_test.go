package resolve

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// ruleCase is a request a rule of the table fills, and the arguments it
// should get.
type ruleCase struct {
	m    schemas.Manifest
	text string
	want map[string]any
}

var (
	// codesProjector's input is shown with its number ("HDMI 2"): a
	// number after the code is the input's, not the volume.
	codesProjector = manifest("t/projector", "Projector", `{"type":"object","properties":{
		"input":{"type":"string","description":"Source to show, a name or an input such as HDMI 2 or USB 1"},
		"volume":{"type":"integer","description":"Volume 0-100"}}}`)
	// ruleHead cannot take a negative count: "-5" after its name is the
	// shell's option.
	ruleHead = manifest("t/head", "Head", `{"type":"object","required":["path"],"properties":{
		"path":{"type":"string","description":"File to read"},"lines":{"type":"integer","minimum":1,"default":10,"description":"How many lines to show"}}}`)
	ruleMailList = manifest("t/mail_list", "Mail", `{"type":"object","required":["to"],"properties":{
		"to":{"type":"array","items":{"type":"string","format":"email"}},"cc":{"type":"array","items":{"type":"string"},"description":"Copy recipients"}}}`)
	ruleCount = manifest("t/count", "Count", `{"type":"object","required":["path"],"properties":{
		"path":{"type":"string"},"lines":{"type":"integer","description":"returns only the first N lines"}}}`)
	ruleEvent = manifest("t/event", "Plan", `{"type":"object","required":["title","date"],"properties":{
		"title":{"type":"string"},"date":{"type":"string","description":"Date of the event"}}}`)
	// ruleContacts looks contacts up by name, email or company.
	ruleContacts = manifest("t/contacts", "Look up contacts", `{"type":"object","required":["query"],"properties":{
		"query":{"type":"string","description":"Name, email or company"}}}`)
	// ruleForecast counts days ahead, three by default.
	ruleForecast = described(manifest("t/forecast", "Weather forecast", `{"type":"object","required":["location"],"properties":{
		"location":{"type":"string","description":"City or place","x-toolyard-freetext":true},
		"days":{"type":"integer","minimum":1,"maximum":14,"default":3,"description":"Number of days"}}}`),
		"Get the weather forecast for a place.")
	ruleMeeting = manifest("t/meeting", "Schedule", `{"type":"object","required":["title","start"],"properties":{
		"title":{"type":"string"},"start":{"type":"string","format":"date-time"},
		"end":{"type":"string","format":"date-time"},"minutes":{"type":"integer","default":30}}}`)
	ruleRemind = manifest("t/remind", "Remind", `{"type":"object","required":["text","at"],"properties":{
		"text":{"type":"string"},"at":{"type":"string","format":"date-time"}}}`)
	ruleMail = manifest("t/mail", "Mail", `{"type":"object","required":["to","subject","body"],"properties":{
		"to":{"type":"string"},"subject":{"type":"string"},"body":{"type":"string"}}}`)
	ruleSearchN = manifest("t/search_n", "Search", `{"type":"object","required":["query"],"properties":{
		"query":{"type":"string"},"num_results":{"type":"integer","description":"How many results"}}}`)
	ruleIssue = manifest("t/issue", "File", `{"type":"object","required":["title"],"properties":{
		"title":{"type":"string"},"labels":{"type":"array","items":{"type":"string"}},"tags":{"type":"string"}}}`)
	ruleTimer = manifest("t/timer", "Timer", `{"type":"object","required":["duration"],"properties":{
		"duration":{"type":"string","description":"Length, e.g. 10m, 1h30m"},"label":{"type":"string"}}}`)
	ruleScale = manifest("t/scale", "Scale deployment", `{"type":"object","required":["deployment","replicas"],"properties":{
		"deployment":{"type":"string","description":"Deployment name"},"namespace":{"type":"string"},"replicas":{"type":"integer"}}}`)
	ruleTint = manifest("t/tint", "Tinted lamp", `{"type":"object","required":["area"],"properties":{
		"area":{"type":"string","description":"Where, e.g. porch, garden"},"tint":{"type":"string","description":"Light tint, e.g. soft amber, cool blue"}}}`)
	ruleShopSearch = manifest("t/shopsearch", "Search products", `{"type":"object","required":["query"],"properties":{
		"query":{"type":"string","x-toolyard-freetext":true},"min_price":{"type":"number","description":"Lowest price"},
		"limit":{"type":"integer","description":"Maximum number of products"}}}`)
	ruleLogs = manifest("t/logs", "Pod logs", `{"type":"object","required":["pod"],"properties":{
		"pod":{"type":"string","description":"Pod name"},"tail_lines":{"type":"integer","description":"Number of lines from the end"},
		"container":{"type":"string","description":"Container name"},
		"since":{"type":"string","description":"Only logs newer than this, e.g. 10m, 1h"}}}`)
	ruleAlarm = manifest("t/alarm", "Alarm", `{"type":"object","required":["time"],"properties":{
		"time":{"type":"string","description":"Clock time, e.g. 06:30"},"days":{"type":"string","description":"Days it repeats, e.g. weekdays"},
		"label":{"type":"string","description":"Alarm label"}}}`)
	ruleChime = manifest("t/chime", "Chime", `{"type":"object","required":["time"],"properties":{
		"time":{"type":"string"},"on":{"type":"string","description":"When it recurs"}}}`)
	ruleShop = manifest("t/shop", "Shopping list", `{"type":"object","properties":{
		"items":{"type":"array","items":{"type":"string"}}}}`)
	ruleRide = manifest("t/ride", "Book ride", `{"type":"object","required":["dropoff"],"properties":{
		"pickup":{"type":"string"},"dropoff":{"type":"string"}}}`)
	ruleSchedule = manifest("t/schedule", "Schedule report", `{"type":"object","required":["report","cron"],"properties":{
		"report":{"type":"string","description":"Saved report name"},"cron":{"type":"string","description":"Schedule as a cron expression"}}}`)
	ruleOrder = manifest("t/order", "Order lookup", `{"type":"object","properties":{
		"order_id":{"type":"string"}}}`)
	ruleChatApp = manifest("t/chat", "Send chat message", `{"type":"object","required":["chat"],"properties":{
		"app":{"type":"string","enum":["whatsapp","signal","telegram"]},"chat":{"type":"string","description":"Person or group chat name"},
		"text":{"type":"string","description":"Message text"}}}`)
	ruleBasket = manifest("t/basket", "Grocery list", `{"type":"object","required":["action"],"properties":{
		"action":{"type":"string","enum":["add","remove","read"]},"items":{"type":"array","items":{"type":"string"},"description":"Items to add or remove"}}}`)
	ruleTunes = manifest("t/tunes", "Play music", `{"type":"object","properties":{
		"query":{"type":"string","description":"Song, artist, album, playlist, genre or mood"},"room":{"type":"string","description":"Speaker or room to play on"}}}`)
	ruleNearby = manifest("t/nearby", "Nearby places", `{"type":"object","required":["query"],"properties":{
		"query":{"type":"string","description":"Kind of place or name"},"near":{"type":"string"},
		"open_now":{"type":"boolean","description":"Only places open now"}}}`)
	ruleSay = manifest("t/say", "Say", `{"type":"object","required":["message"],"properties":{
		"message":{"type":"string"}}}`)
	ruleNote = manifest("t/note", "Pin", `{"type":"object","properties":{
		"note":{"type":"string"}}}`)
	ruleSlice = manifest("t/slice", "Slice", `{"type":"object","properties":{
		"path":{"type":"string"},"head":{"type":"integer","description":"returns only the first N lines"},"skip":{"type":"integer","description":"Number of lines to skip"}}}`)
	ruleVs = manifest("t/vs", "Versus", `{"type":"object","required":["first","second"],"properties":{
		"first":{"type":"string"},"second":{"type":"string"}}}`)
	ruleTeam = manifest("t/team", "Team stats", `{"type":"object","properties":{
		"team":{"type":"string"}}}`)
	ruleTranslate = manifest("t/translate", "Translate", `{"type":"object","required":["text"],"properties":{
		"text":{"type":"string"},"target_language":{"type":"string"}}}`)
	ruleTranslateTo = manifest("t/translate_to", "Translate", `{"type":"object","required":["text","target_language"],"properties":{
		"text":{"type":"string"},"target_language":{"type":"string"}}}`)
	ruleTop = manifest("t/top", "Search", `{"type":"object","required":["query"],"properties":{
		"query":{"type":"string"},"num_results":{"type":"integer","default":5,"description":"Number of results to return"}}}`)
	ruleLookup = manifest("t/lookup", "Resolve", `{"type":"object","required":["host"],"properties":{
		"host":{"type":"string","pattern":"^[A-Za-z0-9][A-Za-z0-9.-]*$","x-toolyard-freetext":true}}}`)
	ruleWeather = manifest("t/weather", "Weather", `{"type":"object","properties":{
		"city":{"type":"string"}}}`)
	ruleClock = manifest("t/clock", "Clock", `{"type":"object","properties":{
		"tz":{"type":"string","description":"IANA time zone"}}}`)
	ruleHash = manifest("t/hash", "Hash", `{"type":"object","required":["path"],"properties":{
		"path":{"type":"string"},"algo":{"type":"string","enum":["md5","sha256"]}}}`)
	ruleRepo = manifest("t/file", "File issue", `{"type":"object","required":["repo","title"],"properties":{
		"repo":{"type":"string"},"title":{"type":"string"},"channel":{"type":"string"}}}`)
	ruleGender = manifest("t/players", "Players", `{"type":"object","properties":{
		"gender":{"type":"string"}}}`)
	ruleReport = manifest("t/report", "Sales report", `{"type":"object","required":["period"],"properties":{
		"period":{"type":"string"}}}`)
	rulePeople = manifest("t/people", "People", `{"type":"object","required":["age"],"properties":{
		"age":{"type":"integer"}}}`)
	ruleAdd = manifest("t/add", "Add", `{"type":"object","required":["a","b"],"properties":{
		"a":{"type":"number"},"b":{"type":"number"}}}`)
	ruleGame = manifest("t/game", "Game info", `{"type":"object","required":["title"],"properties":{
		"title":{"type":"string"}}}`)
	ruleBoil = manifest("t/boil", "Boiling point", `{"type":"object","required":["substance"],"properties":{
		"substance":{"type":"string"}}}`)
	ruleFind = manifest("t/find", "Find files", `{"type":"object","required":["dir"],"properties":{
		"dir":{"type":"string"},"name":{"type":"string","default":"*","description":"Glob pattern the name must match"}}}`)
	ruleSearch = manifest("t/search", "Search", `{"type":"object","required":["query"],"properties":{
		"query":{"type":"string"}}}`)
	ruleLamp = manifest("t/lamp", "Lamp", `{"type":"object","required":["area"],"properties":{
		"area":{"type":"string","description":"Room, e.g. hall"},"on":{"type":"boolean","description":"true to switch on, false to switch off"},
		"level":{"type":"integer"}}}`)
	ruleReviews = manifest("t/reviews", "List reviews", `{"type":"object","properties":{
		"sku":{"type":"string","description":"Product SKU"},"invoice_ref":{"type":"string"},"region":{"type":"string","enum":["eu","us"]}}}`)
	rulePromo = manifest("t/promo", "Create promo", `{"type":"object","required":["code","kind"],"properties":{
		"code":{"type":"string","description":"Promo code"},"amount":{"type":"number","description":"Discount: a percentage or a fixed amount"},
		"kind":{"type":"string","enum":["percentage","fixed"]}}}`)
	ruleVMs = manifest("t/vm", "Reboot VM", `{"type":"object","required":["vm"],"properties":{
		"vm":{"type":"string","description":"VM name"},"region":{"type":"string","description":"Cloud region"}}}`)
	rulePods = manifest("t/pods", "Restart pods", `{"type":"object","required":["app"],"properties":{
		"app":{"type":"string","description":"App label"},"namespace":{"type":"string"}}}`)
	ruleChart = manifest("t/chart", "Chart", `{"type":"object","required":["kind"],"properties":{
		"kind":{"type":"string","enum":["line","bar","pie"]},"table":{"type":"string","description":"Source table"},
		"x":{"type":"string","description":"Column for the x axis"},"y":{"type":"string","description":"Column for the y axis"}}}`)
	ruleChartOneAxis = manifest("t/chart1", "Chart", `{"type":"object","properties":{
		"y":{"type":"string","description":"Column for the y axis"},"title":{"type":"string"}}}`)
	ruleSpikes = manifest("t/spikes", "Find spikes", `{"type":"object","required":["series"],"properties":{
		"series":{"type":"string","description":"Series name"}}}`)
	ruleRoute = manifest("t/route", "Route planner", `{"type":"object","required":["destination"],"properties":{
		"destination":{"type":"string","description":"Where to go"},"travel":{"type":"string","enum":["drive","cycle","walk","ship"]}}}`)
	ruleGate = manifest("t/gate", "Gate", `{"type":"object","required":["gate"],"properties":{
		"gate":{"type":"string"},"state":{"type":"string","enum":["open","closed","locked"]}}}`)
)

// ruleCases are each rule's tests, by rule name: every rule of the table
// has some, and each case needs its rule (TestRules takes the rule out and
// expects another answer).
var ruleCases = map[string][]ruleCase{
	"listed_codes": {
		{codesProjector, "switch the projector to HDMI 3", map[string]any{"input": "HDMI 3"}},
		{codesProjector, "use usb 1 on the hall projector at volume 12", map[string]any{"input": "usb 1", "volume": int64(12)}},
	},
	"currencies": {
		{fxConvert, "swap 410 Swiss francs into yen", map[string]any{"value": 410.0, "source": "CHF", "target": "JPY"}},
	},
	"units": {
		{unitsMeasure, "turn 12 oz into grams", map[string]any{"amount": 12.0, "source_unit": "oz", "target_unit": "g"}},
	},
	"percentiles": {
		{dataStats, "the 75th and 90th percentiles of basket_size in carts", map[string]any{"table": "carts", "column": "basket_size", "percentiles": []any{float64(75), float64(90)}}},
		{dataQuantile, "p95 of Errors", map[string]any{"series": "Errors", "percentile": float64(95)}},
	},
	"tables": {
		{dataStats, "median of basket_size from carts", map[string]any{"table": "carts", "column": "basket_size", "percentiles": []any{float64(50)}}},
	},
	"listed_values": {
		{listedStats, "wau by week", map[string]any{"measure": "wau", "bucket": "week"}},
		// A listed value of several words, written whole.
		{ruleTint, "make the porch lamp soft amber", map[string]any{"area": "porch", "tint": "soft amber"}},
	},
	"frequencies": {
		{dataBars, "daily bars for ACME", map[string]any{"ticker": "ACME", "interval": "1d"}},
		{dataUsage, "weekly usage of the mobile app", map[string]any{"grain": "W"}},
	},
	"tickers": {
		{quoteTool, "SBUX pre-market", map[string]any{"ticker": "SBUX"}},
	},
	"statements": {
		{stmtRun, `SELECT city, count(*) FROM depots GROUP BY city`, map[string]any{"statement": `SELECT city, count(*) FROM depots GROUP BY city`}},
		{stmtDump, "write out `select * from depots where city = 'Oslo'` as rows", map[string]any{"sql": `select * from depots where city = 'Oslo'`}},
	},
	"keyed": {
		{ruleCount, "count path=/srv/a.txt lines=3", map[string]any{"path": "/srv/a.txt", "lines": int64(3)}},
	},
	// Against the clock of moments_test.go: Friday 2026-11-27, 11:00
	// UTC.
	// Against the same clock, a Friday: Thursday is 6 days ahead, the
	// Sunday after next 9.
	"horizons": {
		{ruleForecast, "will it rain in Oslo on Thursday", map[string]any{"location": "Oslo", "days": int64(7)}},
		{ruleForecast, "weather in Rome next week", map[string]any{"location": "Rome", "days": int64(10)}},
		// A count given stands; the day past it is reported, not glued
		// to the place.
		{ruleForecast, "forecast Berlin days=2 on Friday", map[string]any{"location": "Berlin", "days": int64(2)}},
	},
	"moments": {
		{ruleMeeting, `schedule "Kickoff" tomorrow at 3pm`, map[string]any{"title": "Kickoff", "start": "2026-11-28T15:00:00Z", "minutes": int64(30)}},
		{ruleMeeting, `schedule "Review" on Monday at 10:30am, ends at 5`, map[string]any{"title": "Review", "start": "2026-11-30T10:30:00Z", "end": "2026-11-30T17:00:00Z", "minutes": int64(30)}},
		{ruleMeeting, `schedule "Stretch" in 2 hours`, map[string]any{"title": "Stretch", "start": "2026-11-27T13:00:00Z", "minutes": int64(30)}},
		{ruleEvent, `plan "Standup" for next Tuesday`, map[string]any{"title": "Standup", "date": "2026-12-01"}},
		{ruleEvent, `plan "Replay" at yesterday's slot`, map[string]any{"title": "Replay", "date": "2026-11-26"}}, // a day's possessive is the day
	},
	"destinations": {
		{ruleRide, "book a ride to the airport from my office", map[string]any{"dropoff": "the airport", "pickup": "my office"}},
		{valRoute, "how do I get to Willow Creek Library", map[string]any{"destination": "Willow Creek Library"}},
		{valRoute, "route from school to the pier", map[string]any{"origin": "school", "destination": "the pier"}},
		{valRoute, "the fastest way home", map[string]any{"destination": "home"}},
	},
	"lists": {
		// One item after the list's own noun, its noun singular; the
		// title read before it stops at it.
		{ruleIssue, "file an issue titled Crash on save with label regression", map[string]any{"title": "Crash on save", "labels": []any{"regression"}}},
		// One noun phrase after add/remove/put/buy is a one-item list.
		{ruleBasket, "add rye bread to the list", map[string]any{"action": "add", "items": []any{"rye bread"}}},
		{ruleBasket, "please remove the frozen peas from my list.", map[string]any{"action": "remove", "items": []any{"frozen peas"}}},
		{ruleBasket, "add kombucha", map[string]any{"action": "add", "items": []any{"kombucha"}}},
		{ruleShop, "add eggs, milk and bread to the list", map[string]any{"items": []any{"eggs", "milk", "bread"}}},
		{ruleShop, "put the oat milk, dark chocolate or honey on it", map[string]any{"items": []any{"oat milk", "dark chocolate", "honey"}}},
		{ruleShop, "I need rice, lentils and limes on the list", map[string]any{"items": []any{"rice", "lentils", "limes"}}},
		// The parameter's own noun before its items is none of them.
		{wvTicket, "open a ticket in web/app titled Slow search with tags perf and ui", map[string]any{"repo": "web/app", "title": "Slow search", "tags": []any{"perf", "ui"}}},
	},
	"titled": {
		{ruleMeeting, "schedule a meeting called Team sync tomorrow at 10am", map[string]any{"title": "Team sync", "start": "2026-11-28T10:00:00Z", "minutes": int64(30)}},
		{ruleMeeting, "a meeting titled Budget review for next year, tomorrow at noon", map[string]any{"title": "Budget review for next year", "start": "2026-11-28T12:00:00Z", "minutes": int64(30)}},
		{ruleMeeting, "put a meeting named budget review on tomorrow at 4pm", map[string]any{"title": "budget review", "start": "2026-11-28T16:00:00Z", "minutes": int64(30)}},
		// An optional label is what the timer is called too.
		{ruleTimer, "start a 5 minute timer called tea", map[string]any{"duration": "5m", "label": "tea"}},
		{ruleTimer, "a 2 hour timer labelled slow roast", map[string]any{"duration": "2h", "label": "slow roast"}},
		{ruleTimer, "set a 20 minute timer for the laundry", map[string]any{"duration": "20m", "label": "laundry"}},
		{ruleTimer, "timer for my nap, 25 minutes", map[string]any{"duration": "25m", "label": "nap"}},
	},
	"colon_content": {
		// After a message verb and who gets it, the colon opens the message.
		{ruleChatApp, "Telegram the climbing club: meet at the crag at 8", map[string]any{"app": "telegram", "chat": "the climbing club", "text": "meet at the crag at 8"}},
		{ruleChatApp, "message to Ines: bring the charger.", map[string]any{"chat": "Ines", "text": "bring the charger"}},
		{ruleChatApp, "dm Dario on signal: running ten minutes behind", map[string]any{"app": "signal", "chat": "Dario", "text": "running ten minutes behind"}},
		// A date the tool takes nowhere is the message's.
		{ruleChatApp, "message Ines: the release on 2024-05-01 went fine", map[string]any{"chat": "Ines", "text": "the release on 2024-05-01 went fine"}},
		{ruleSay, "say to the hall speakers: the quick brown fox", map[string]any{"message": "the quick brown fox"}},
		{ruleMail, "mail ann@example.org about the outage: the database is back up", map[string]any{"to": "ann@example.org", "subject": "outage", "body": "the database is back up"}},
		// The word before the colon went to another parameter.
		{wvTicket, "open a ticket on web/app: search is slow on mobile", map[string]any{"repo": "web/app", "title": "search is slow on mobile"}},
	},
	"said": {
		// A field after a comma, which another rule took, ends the message.
		{ruleMail, "mail bob@example.com saying see you, subject Hi", map[string]any{"to": "bob@example.com", "body": "see you", "subject": "Hi"}},
		// "that" and a subject's clause after a verb that sends a message.
		{ruleChatApp, "post in the Signal chat with Noor that we're boarding", map[string]any{"app": "signal", "chat": "Noor", "text": "we're boarding"}},
		{ruleChatApp, "Could you message Tomas that I'll be late?", map[string]any{"chat": "Tomas", "text": "I'll be late"}},
		{ruleMail, "mail bob@example.com with subject Lunch that lunch is at 12:30", map[string]any{"to": "bob@example.com", "subject": "Lunch", "body": "lunch is at 12:30"}},
		{ruleMail, "mail ann@example.org with subject Lunch and say see you at noon", map[string]any{"to": "ann@example.org", "subject": "Lunch", "body": "see you at noon"}},
		{ruleMail, "mail ann@example.org with subject Friday that the meeting is off", map[string]any{"to": "ann@example.org", "subject": "Friday", "body": "the meeting is off"}},
	},
	"booked": {
		{wvBooking, "put coffee with Dana on my calendar for Monday at 9am", map[string]any{"title": "coffee with Dana", "start": "2026-11-30T09:00:00Z"}},
		{wvBooking, "book a 45 minute budget review tomorrow at 3pm", map[string]any{"title": "budget review", "start": "2026-11-28T15:00:00Z", "length_minutes": int64(45)}},
	},
	"say_in": {
		{wvPhrase, "how do you say where is the bakery in Italian", map[string]any{"phrase": "where is the bakery", "language": "Italian"}},
	},
	"purpose_clause": {
		{ruleRemind, "remind me tomorrow at 9am to call Ann", map[string]any{"text": "call Ann", "at": "2026-11-28T09:00:00Z"}},
		{ruleRemind, "remind me to water the plants in 2 hours", map[string]any{"text": "water the plants", "at": "2026-11-27T13:00:00Z"}},
		{ruleRemind, "a remind for Friday at 5 to submit the report", map[string]any{"text": "submit the report", "at": "2026-12-04T17:00:00Z"}},
		{ruleRemind, "tomorrow at 8am nudge me to book the vet", map[string]any{"text": "book the vet", "at": "2026-11-28T08:00:00Z"}},
	},
	"cron": {
		{ruleSchedule, "send the sales report every Monday at 9am", map[string]any{"report": "sales", "cron": "0 9 * * 1"}},
		{ruleSchedule, "send the sales report on weekdays at 8:30", map[string]any{"report": "sales", "cron": "30 8 * * 1-5"}},
		{ruleSchedule, "send the sales report daily at noon", map[string]any{"report": "sales", "cron": "0 12 * * *"}},
		{ruleSchedule, "send the sales report every Monday and Thursday at 7am", map[string]any{"report": "sales", "cron": "0 7 * * 1,4"}},
		{ruleSchedule, "send the sales report on weekends at 10am", map[string]any{"report": "sales", "cron": "0 10 * * 0,6"}},
	},
	"repeat_days": {
		{ruleAlarm, "alarm at 8am every weekend", map[string]any{"time": "08:00", "days": "weekends"}},
		{ruleAlarm, "get me up at 5:45 on Mondays and Wednesdays", map[string]any{"time": "05:45", "days": "Monday, Wednesday"}},
		{ruleAlarm, "an alarm for 9am every Tuesday, Thursday and Saturday", map[string]any{"time": "09:00", "days": "Tuesday, Thursday, Saturday"}},
		{ruleAlarm, "alarm at 6:15 on weekdays called yoga", map[string]any{"time": "06:15", "days": "weekdays", "label": "yoga"}},
		{ruleChime, "chime at 12:00 every day", map[string]any{"time": "12:00", "on": "daily"}},
	},
	"durations": {
		{ruleTimer, "start a timer for 10 minutes", map[string]any{"duration": "10m"}},
		{ruleTimer, "timer of 1 hour and 30 minutes", map[string]any{"duration": "1h30m"}},
		{ruleTimer, "how about a 90-second timer", map[string]any{"duration": "90s"}},
		{ruleTimer, "a timer for two and a half hours", map[string]any{"duration": "2h30m"}},
		// How far back to look, written compactly: no count of lines.
		{ruleLogs, "logs of web-1 for the last 15 minutes", map[string]any{"pod": "web-1", "since": "15m"}},
	},
	"lengths": {
		// A length of time, converted to the parameter's unit.
		{dataLease, "lease at 1800 rent for 2 years", map[string]any{"rent": float64(1800), "term": int64(24)}},
		{dataCache, "cache put session-9 with a time to live of 2 hours", map[string]any{"key": "session-9", "ttl_seconds": int64(7200)}},
	},
	"percentages": {
		{dataSavings, "savings on a 5000 deposit at 3.5% for 10 years", map[string]any{"deposit": float64(5000), "rate": 0.035, "years": int64(10)}},
		// The kind of a value is its percentage's: percent.
		{rulePromo, "promo code WINTER10 at 10% off", map[string]any{"code": "WINTER10", "amount": 10.0, "kind": "percentage"}},
	},
	"dates": {
		{ruleEvent, `plan "Standup" on March 3, 2031`, map[string]any{"title": "Standup", "date": "2031-03-03"}},
	},
	"ids": {
		{ruleOrder, "look up the order with the ID QX-77", map[string]any{"order_id": "QX-77"}},
	},
	"cued_quoted": {
		{ruleNote, `pin the note "see you soon"`, map[string]any{"note": "see you soon"}},
		{ruleNote, `pin note 'see you soon'`, map[string]any{"note": "see you soon"}},
	},
	"named_it": {
		{ruleIssue, "file Crash in acme/app, label it bug", map[string]any{"title": "Crash", "labels": []any{"bug"}}},
		{ruleIssue, "file Crash and tag them as urgent", map[string]any{"title": "Crash", "tags": "urgent"}},
		// A list for an array, and what a colon opened ends before it.
		{ruleIssue, "file an issue: Login fails on Safari, label it bug and ui", map[string]any{"title": "Login fails on Safari", "labels": []any{"bug", "ui"}}},
	},
	"cues": {
		// An array parameter's name before a list takes the whole list.
		{ruleMailList, "mail bob@example.com, cc ann@example.com, joe@example.com and kim@example.com",
			map[string]any{"to": []any{"bob@example.com"}, "cc": []any{"ann@example.com", "joe@example.com", "kim@example.com"}}},
		{ruleSlice, "slice /srv/a.txt, skip 2", map[string]any{"path": "/srv/a.txt", "skip": int64(2)}},
		// The noun a description names a parameter by cues it first.
		{dataWorkbook, "write to the book Pipeline, worksheet Leads", map[string]any{"book": "Pipeline", "page": "Leads"}},
	},
	"shapes": {
		{valMail, "mail Tom the report q3-summary.pdf", map[string]any{"to": "Tom", "enclosure": "q3-summary.pdf"}},
		{ruleSlice, "slice /var/data/big.csv", map[string]any{"path": "/var/data/big.csv"}},
		{ruleRepo, `file "Crash on start" in acme/widgets`, map[string]any{"repo": "acme/widgets", "title": "Crash on start"}},
		{ruleRepo, `file "Broken link" in acme/site on #web-team`, map[string]any{"repo": "acme/site", "title": "Broken link", "channel": "#web-team"}},
	},
	"identifiers": {
		{valCourier, "where's my parcel 7312004458891", map[string]any{"waybill_number": "7312004458891"}},
		{valCourier, "status of JD014600006281 please", map[string]any{"waybill_number": "JD014600006281"}},
		// A code whose letters name the parameter: SKU-… a sku, INV… an invoice.
		{ruleReviews, "reviews of SKU-300", map[string]any{"sku": "SKU-300"}},
		{ruleReviews, "reviews on invoice INV2041 for SKU-9", map[string]any{"sku": "SKU-9", "invoice_ref": "INV2041"}},
	},
	"named_files": {
		{ruleFind, "find files named notes.txt in /srv", map[string]any{"dir": "/srv", "name": "notes.txt"}},
		{ruleFind, "look in /srv for files called report.v2.md", map[string]any{"dir": "/srv", "name": "report.v2.md"}},
		{ruleFind, "find files named 'q3 report.pdf' in /srv", map[string]any{"dir": "/srv", "name": "q3 report.pdf"}},
		// A whole name without an extension.
		{ruleFind, "find files named Makefile in /srv", map[string]any{"dir": "/srv", "name": "Makefile"}},
		{ruleFind, "look in /srv for a file called id_rsa", map[string]any{"dir": "/srv", "name": "id_rsa"}},
	},
	"extensions": {
		{ruleFind, "find .txt files in /srv", map[string]any{"dir": "/srv", "name": "*.txt"}},
		{ruleFind, "look in /srv for files ending in .tar.gz", map[string]any{"dir": "/srv", "name": "*.tar.gz"}},
	},
	"home_dirs": {
		{ruleFind, "find files in my downloads", map[string]any{"dir": "~/Downloads", "name": "*"}},
		{ruleFind, "look in the documents folder", map[string]any{"dir": "~/Documents", "name": "*"}},
		{ruleFind, "search my home directory", map[string]any{"dir": "~", "name": "*"}},
	},
	"heads": {
		{ruleTeam, "stats of the Falcons team", map[string]any{"team": "Falcons"}},
		{dataWorkbook, "write the leads_q3 table to a new book", map[string]any{"table": "leads_q3"}},
		// The verb's particle and its change end the value: "up to 12".
		{ruleScale, "bump the api deployment in namespace payments up to 12", map[string]any{"deployment": "api", "namespace": "payments", "replicas": int64(12)}},
		// After another thing's code a noun and its value start a pair.
		{ruleLogs, "logs of web-1 container sidecar", map[string]any{"pod": "web-1", "container": "sidecar"}},
	},
	"providers": {
		{valCab, "order a Swiftcab to the museum", map[string]any{"dropoff": "the museum", "company": "Swiftcab"}},
		{valRadio, "play jazz via Streamline", map[string]any{"source": "Streamline"}},
	},
	"owners": {
		{dataOrders, "open orders for Wayne Holdings", map[string]any{"client": "Wayne Holdings", "status": "open"}},
	},
	"languages": {
		{ruleTranslate, `translate "good night" into Italian`, map[string]any{"text": "good night", "target_language": "Italian"}},
		{ruleTranslate, `translate "good night" to german`, map[string]any{"text": "good night", "target_language": "german"}},
		// Where the parameter asks for the code, the code.
		{wvSubtitles, "subtitles for clip42 in Farsi", map[string]any{"video": "clip42", "language": "fa"}},
	},
	"places": {
		{ruleWeather, "weather in Reykjavik", map[string]any{"city": "Reykjavik"}},
		// A parameter named for the preposition, or described as a location.
		{ruleNearby, "pharmacies open now near the station", map[string]any{"query": "pharmacies", "near": "station", "open_now": true}},
		// A city with its country after a comma is one place.
		{wvListings, "bakeries in Lyon, France", map[string]any{"query": "bakeries", "area": "Lyon, France", "limit": int64(10), "lang": "en"}},
		// A kind of place and its name, for the parameter for that kind.
		{wvBooking, `book "Retro" tomorrow at 3pm in room Vega`, map[string]any{"title": "Retro", "start": "2026-11-28T15:00:00Z", "place": "room Vega"}},
		// "at" a name, for the merchant.
		{dataSpend, "card spend at Blue Bottle", map[string]any{"payee": "Blue Bottle"}},
	},
	"zones": {
		{ruleClock, "the clock in Buenos Aires", map[string]any{"tz": "America/Argentina/Buenos_Aires"}},
		{ruleClock, "clock for europe/berlin", map[string]any{"tz": "Europe/Berlin"}},
	},
	"states": {
		// "open" said of the places asked for sets an open-now flag.
		{ruleNearby, "a pharmacy open now near Elm Park", map[string]any{"query": "pharmacy", "near": "Elm Park", "open_now": true}},
		{ruleLamp, "turn off the lamp in the hall", map[string]any{"area": "hall", "on": false}},
		{ruleLamp, "lamp on in the study", map[string]any{"area": "study", "on": true}},
		{ruleGate, "close the garden gate", map[string]any{"gate": "garden", "state": "closed"}},
	},
	"scopes": {
		{ruleVMs, "reboot vm web-3 in ap-south-2", map[string]any{"vm": "web-3", "region": "ap-south-2"}},
		{rulePods, "restart the pods of cart in billing", map[string]any{"app": "cart", "namespace": "billing"}},
	},
	"axes": {
		{ruleChart, "line chart of signups by week from the events table", map[string]any{"kind": "line", "table": "events", "x": "week", "y": "signups"}},
	},
	"enum_words": {
		{valPeople, "Ravi Menon's email address", map[string]any{"person": "Ravi Menon", "detail": "email"}},
		{ruleHash, "hash /srv/a.iso with md5", map[string]any{"path": "/srv/a.iso", "algo": "md5"}},
		{ruleHash, "md5sum /srv/a.iso", map[string]any{"path": "/srv/a.iso", "algo": "md5"}},
		// A verb's -ing form qualifying a noun is the member.
		{ruleRoute, "cycling route to the lake", map[string]any{"destination": "the lake", "travel": "cycle"}},
	},
	"state_questions": {
		{valPantry, "what's in the pantry", map[string]any{"op": "list"}},
		{guardDoor, "is the back door locked?", map[string]any{"door": "back", "action": "status"}},
	},
	"vocabularies": {
		{ruleGender, "list the female players", map[string]any{"gender": "female"}},
	},
	"date_ranges": {
		{rangeReport, "north region sales for the last 30 days", map[string]any{"region": "north", "start": "2026-10-28", "end": "2026-11-27"}},
		{rangeReport, "sales since Q2", map[string]any{"start": "2026-04-01"}},
	},
	"periods": {
		{ruleReport, "sales report over the last quarter", map[string]any{"period": "last quarter"}},
	},
	"described_counts": {
		{ruleSlice, "slice /srv/a.txt, skip 1, returning only the first 4 lines", map[string]any{"path": "/srv/a.txt", "skip": int64(1), "head": int64(4)}},
		{ruleSlice, "slice /srv/a.txt returning only the first seven lines", map[string]any{"path": "/srv/a.txt", "head": int64(7)}},
	},
	"singular_counts": {
		{ruleSlice, "slice /srv/a.txt, returning only the first line", map[string]any{"path": "/srv/a.txt", "head": int64(1)}},
		{ruleTop, "the top result for gopher", map[string]any{"query": "gopher", "num_results": int64(1)}},
	},
	"labelled_fields": {
		{ruleMail, "mail bob@example.com with subject Weekly report and body the numbers are attached",
			map[string]any{"to": "bob@example.com", "subject": "Weekly report", "body": "the numbers are attached"}},
		{ruleMail, "mail bob@example.com with the subject Hi and the body see you tomorrow",
			map[string]any{"to": "bob@example.com", "subject": "Hi", "body": "see you tomorrow"}},
	},
	"shell_counts": {
		{ruleHead, "head -5 notes.txt", map[string]any{"path": "notes.txt", "lines": int64(5)}},
		{ruleHead, "head -n5 notes.txt", map[string]any{"path": "notes.txt", "lines": int64(5)}},
	},
	"loose_numbers": {
		{rulePeople, "people who are forty-one years old", map[string]any{"age": int64(41)}},
		{rulePeople, "people who are 41 years old", map[string]any{"age": int64(41)}},
		// A number made one word with its noun; the words framing a count.
		{wvStay, "a 3-night stay in Kyoto", map[string]any{"city": "Kyoto", "nights": int64(3), "guests": int64(2)}},
		{wvListings, "loft apartments, max 40 results", map[string]any{"query": "loft apartments", "limit": int64(40), "lang": "en"}},
		// The bound says which of several numbers is the count.
		{ruleShopSearch, "desk lamps over 30 dollars, top 8", map[string]any{"query": "desk lamps", "min_price": float64(30), "limit": int64(8)}},
		{ruleShopSearch, "desk lamps over 30 dollars, 8 results", map[string]any{"query": "desk lamps", "min_price": float64(30), "limit": int64(8)}},
		// A number by a noun of one parameter's description.
		{dataPledge, "spread a 1200 pledge over 12 months", map[string]any{"total": float64(1200), "months": int64(12)}},
	},
	"bare_quoted": {
		{ruleGame, `game info for "Space Miners"`, map[string]any{"title": "Space Miners"}},
	},
	"ordered_numbers": {
		{ruleAdd, "add 4 and 9", map[string]any{"a": float64(4), "b": float64(9)}},
	},
	"named_phrase": {
		{ruleSay, "say the message good luck", map[string]any{"message": "good luck"}},
	},
	"names": {
		{ruleVs, "compare Stardew Valley against Terraria", map[string]any{"first": "Stardew Valley", "second": "Terraria"}},
	},
	"object": {
		// "in" after the tool's own word opens what its thing is of.
		{ruleSpikes, "look for spikes in login failures", map[string]any{"series": "login failures"}},
		// A possessive owner is kept whole when what it owns is the tool's thing.
		{ruleChatApp, "Drop the map into the climbing club's Signal group.", map[string]any{"app": "signal", "chat": "climbing club"}},
		{ruleChatApp, "pin the photo on the choir's group chat", map[string]any{"chat": "choir"}},
		{ruleBoil, "the boiling point of ethanol", map[string]any{"substance": "ethanol"}},
	},
	"verb_object": {
		// The object of play / put on / search for, for the optional what.
		{ruleTunes, "play some bossa nova", map[string]any{"query": "bossa nova"}},
		{ruleTunes, "put on Nina Simone's first record in the den", map[string]any{"query": "Nina Simone's first record", "room": "den"}},
		{ruleTunes, "play a little lo-fi", map[string]any{"query": "little lo-fi"}},
		{ruleTranslateTo, "translate good morning to Spanish", map[string]any{"text": "good morning", "target_language": "Spanish"}},
		{ruleTranslateTo, "please translate hello into german", map[string]any{"text": "hello", "target_language": "german"}},
	},
	"freetext": {
		// An existential question's thing is the query, without its article.
		{ruleNearby, "Is there a laundromat open around here?", map[string]any{"query": "laundromat", "open_now": true}},
		{ruleNearby, "are there any vegan bakeries close to me?", map[string]any{"query": "vegan bakeries"}},
		{ruleNearby, "is there an ATM nearby", map[string]any{"query": "ATM"}},
		{ruleSearch, "search for cheap flights to Oslo", map[string]any{"query": "cheap flights to Oslo"}},
		// What to be told about a thing frames the thing a look-up searches.
		{ruleSearch, "get the details of Jane Doe", map[string]any{"query": "Jane Doe"}},
		{ruleSearch, "pull up the record for ann@example.com", map[string]any{"query": "ann@example.com"}},
		// "at" ends the frame as "for" does: the company a look-up is for.
		{ruleContacts, "find the contacts at Globex", map[string]any{"query": "Globex"}},
		{ruleSearchN, "search for pizza in Naples, top 3", map[string]any{"query": "pizza in Naples", "num_results": int64(3)}},
		{ruleSay, "say hello from the moon", map[string]any{"message": "hello from the moon"}},
		{ruleLookup, "what is the ip of localhost", map[string]any{"host": "localhost"}},
		// Past the frame and its cue, verbatim: articles and the tool's
		// own words kept.
		{freeCounter, "count the words in a piece of text about words", map[string]any{"text": "a piece of text about words"}},
		{freeCounter, "how many words are in this is a test", map[string]any{"text": "this is a test"}},
	},
}

// fillWith resolves text for m with the rules rs.
func fillWith(t *testing.T, m schemas.Manifest, text string, rs []rule) (map[string]any, error) {
	t.Helper()
	e, err := cached(m)
	if err != nil {
		t.Fatal(err)
	}
	args, _, err := fill(routed(text).Intent, e.schema, e.words, m.ID, rs, nil)
	return args, err
}

// coveredBy names the later rule that also reads a rule's cases: the rule
// claims them first (so that nothing between the two reads them
// otherwise), and its cases must need the two together.
var coveredBy = map[string]string{
	"cued_quoted": "heads",         // "the note 'x'" is also a value next to its noun
	"repeat_days": "listed_values", // "Days it repeats, e.g. weekdays" lists one of its values
	"states":      "flags",         // open_now's name is the words "open now" too
}

// TestRules runs each rule's cases with the whole table, then without
// that rule (and the rule that covers it): the case must need it.
func TestRules(t *testing.T) {
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			if r.doc == "" || r.apply == nil {
				t.Fatalf("rule %s has no doc or no apply", r.name)
			}
			cases := ruleCases[r.name]
			if len(cases) == 0 {
				t.Fatalf("rule %s has no cases in ruleCases", r.name)
			}
			var without []rule
			for _, o := range rules {
				if o.name != r.name && o.name != coveredBy[r.name] {
					without = append(without, o)
				}
			}
			for _, c := range cases {
				got, err := fillWith(t, c.m, c.text, rules)
				if err != nil || !reflect.DeepEqual(got, c.want) {
					t.Errorf("%q: got %#v (%v), want %#v", c.text, got, err, c.want)
					continue
				}
				if got, err := fillWith(t, c.m, c.text, without); err == nil && reflect.DeepEqual(got, c.want) {
					t.Errorf("%q resolves the same without rule %s: the case does not test it", c.text, r.name)
				}
			}
		})
	}
	for name := range ruleCases {
		if _, ok := ruleNamed(name); !ok {
			t.Errorf("ruleCases has cases for %q, which is no rule", name)
		}
	}
}

// TestVerbObjectLeavesReferences: verb_object reads a direct object, not a
// reference to what was said before, the tool's own words or a phrase
// after a preposition.
func TestVerbObjectLeavesReferences(t *testing.T) {
	for _, text := range []string{
		"translate this paragraph into French",
		"translate it to German",
		"translate the above into Spanish",
		"translate into Italian",
		"translate text to Dutch",
		"translate whether it rains into Danish",
	} {
		got, err := fillWith(t, ruleTranslateTo, text, rules)
		if err == nil || got["text"] != nil {
			t.Errorf("%q: got %#v (%v), want text left missing", text, got, err)
		}
	}
}

// TestNamingClause: "for the X" names the thing only when a parameter
// takes its name and X is a plain word, never a number, a length or a
// time; "called X" fills a label, never a pattern of names.
func TestNamingClause(t *testing.T) {
	countdown := manifest("t/countdown", "Countdown", `{"type":"object","required":["length"],"properties":{
		"length":{"type":"string","description":"Length, e.g. 10m"},"note":{"type":"string","description":"Name of the countdown"}}}`)
	for _, c := range []struct {
		m    schemas.Manifest
		text string
		want map[string]any
	}{
		{ruleTimer, "set a timer for 10 minutes for 2 people", map[string]any{"duration": "10m"}},
		{ruleTimer, "set a timer for the next 15 minutes", map[string]any{"duration": "15m"}},
		{ruleTimer, "a 3 minute timer for the morning", map[string]any{"duration": "3m"}},
		{ruleTimer, "a 3 minute timer for the big pot of rice now", map[string]any{"duration": "3m"}}, // more than a name
		{ruleTimer, "timer named focus for 25 minutes", map[string]any{"duration": "25m", "label": "focus"}},
		// A parameter its description says names the tool's thing.
		{countdown, "a countdown of 30 seconds for the kettle", map[string]any{"length": "30s", "note": "kettle"}},
		{countdown, "a countdown of 30 seconds called kettle", map[string]any{"length": "30s", "note": "kettle"}},
		// The word right after the cue is the name, however common a
		// word it is; trailing framing words are not, nor a preposition
		// or determiner alone.
		{ruleTimer, "start a 4 minute timer called run", map[string]any{"duration": "4m", "label": "run"}},
		{ruleTimer, "a 4 minute timer named go", map[string]any{"duration": "4m", "label": "go"}},
		{ruleTimer, "a 4 minute timer labelled check, thanks", map[string]any{"duration": "4m", "label": "check"}},
		{ruleTimer, "a 4 minute timer called make please", map[string]any{"duration": "4m", "label": "make"}},
		{ruleTimer, "a 4 minute timer called stretch now", map[string]any{"duration": "4m", "label": "stretch"}},
		{ruleTimer, "a 4 minute timer called for", map[string]any{"duration": "4m"}},
		{ruleTimer, "a 4 minute timer called the", map[string]any{"duration": "4m"}},
		{ruleMeeting, "a meeting titled Open please, tomorrow at 9am", map[string]any{"title": "Open", "start": "2026-11-28T09:00:00Z", "minutes": int64(30)}},
	} {
		got, err := fillWith(t, c.m, c.text, rules)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %#v (%v), want %#v", c.text, got, err, c.want)
		}
	}
}

// TestNamingParam: which parameters take what the tool's thing is called.
func TestNamingParam(t *testing.T) {
	m := manifest("t/alarm", "Alarm", `{"type":"object","properties":{
		"label":{"type":"string"},"alarm_name":{"type":"string"},"city_name":{"type":"string"},
		"note":{"type":"string","description":"Alarm label"},"place":{"type":"string","description":"The name of the city"},
		"kind":{"type":"string","enum":["a","b"],"description":"Alarm name"},"pattern":{"type":"string","default":"*","description":"Name of the alarm"}}}`)
	e, err := cached(m)
	if err != nil {
		t.Fatal(err)
	}
	f := newFiller("", e.schema, e.words)
	want := map[string]bool{"label": true, "alarm_name": true, "city_name": false, "note": true, "place": false, "kind": false, "pattern": false}
	for name, w := range want {
		if got := f.namingParam(e.schema.prop(name)); got != w {
			t.Errorf("namingParam(%s) = %v, want %v", name, got, w)
		}
	}
}

// TestRepeatDaysLeavesOneDay: one day is no recurrence, and an hour
// names no days.
func TestRepeatDaysLeavesOneDay(t *testing.T) {
	for _, text := range []string{
		"alarm at 7am on Saturday",
		"alarm at 7am every hour",
		"alarm at 7am this weekend",
	} {
		got, err := fillWith(t, ruleAlarm, text, rules)
		if err != nil || got["days"] != nil {
			t.Errorf("%q: got %#v (%v), want days left unset", text, got, err)
		}
	}
}

// TestStates: a state word goes to the parameter whose enum or
// description holds it, as a switching verb's particle or the request's
// verb; elsewhere "on" and "off" are prepositions, and a state no
// parameter takes is reported, never placed as a name or a room.
func TestStates(t *testing.T) {
	heater := manifest("t/heater", "Heater", `{"type":"object","required":["room"],"properties":{
		"room":{"type":"string"},"target":{"type":"number"},"eco":{"type":"boolean","description":"Eco mode"}}}`)
	fan := manifest("t/fan", "Fan", `{"type":"object","required":["fan"],"properties":{"fan":{"type":"string"}}}`)
	shed := manifest("t/shed", "Shed lock", `{"type":"object","required":["door"],"properties":{
		"door":{"type":"string"},"locked":{"type":"boolean","description":"Whether the door should be locked"}}}`)
	telly := manifest("t/telly", "Telly", `{"type":"object","properties":{
		"screen":{"type":"string"},"power":{"type":"boolean","description":"Turn on (true) or off (false)"}}}`)
	two := manifest("t/two", "Two switches", `{"type":"object","properties":{
		"on":{"type":"boolean","description":"true to switch on"},"off":{"type":"boolean","description":"true to switch off"}}}`)
	for _, c := range []struct {
		m        schemas.Manifest
		text     string
		want     map[string]any // nil: only that no state is set
		unmapped []string
	}{
		{ruleLamp, "switch on the lamp in the hall", map[string]any{"area": "hall", "on": true}, nil},
		{ruleLamp, "please flick the lamp off in the den", map[string]any{"area": "den", "on": false}, nil},
		{ruleLamp, "lamp off in the attic, thanks", map[string]any{"area": "attic", "on": false}, nil},
		// "on" as a preposition is no state.
		{ruleLamp, "leave the lamp on the porch", map[string]any{"area": "porch"}, nil},
		{ruleLamp, "dim the lamp on the landing to 40", map[string]any{"area": "landing", "level": int64(40)}, nil},
		// A room is a place: "in the office".
		{heater, "set the heater to 21 in the office", map[string]any{"room": "office", "target": float64(21)}, nil},
		// No parameter holds on or off: reported, placed nowhere.
		{heater, "turn on the heater in the office", map[string]any{"room": "office"}, []string{"on"}},
		{heater, "heater off in the garage", map[string]any{"room": "garage"}, []string{"off"}},
		{fan, "turn the fan off", map[string]any{}, []string{"off"}},
		// A boolean named for the state, and by its description.
		{shed, "lock the shed door", map[string]any{"locked": true}, nil},
		{shed, "unlock the shed door", map[string]any{"locked": false}, nil},
		{shed, "close the shed door", map[string]any{}, nil}, // closed is not locked
		{telly, "telly off", map[string]any{"power": false}, nil},
		{telly, "switch the telly on", map[string]any{"power": true}, nil},
		// Two parameters could take it: neither does.
		{two, "switch it on", map[string]any{}, []string{"on"}},
		// An enum holds the state or another form of it.
		{ruleGate, "open the garden gate", map[string]any{"gate": "garden", "state": "open"}, nil},
		{ruleGate, "lock the garden gate", map[string]any{"gate": "garden", "state": "locked"}, nil},
		// The state verb is the request's verb only: a question sets
		// nothing.
		{shed, "is the shed door locked", nil, nil},
	} {
		f := fillOnly(t, c.m, c.text)
		if c.want == nil {
			if v, ok := f.args["locked"]; ok {
				t.Errorf("%q: locked = %v, want none", c.text, v)
			}
			continue
		}
		if !reflect.DeepEqual(f.args, c.want) {
			t.Errorf("%q: got %#v, want %#v", c.text, f.args, c.want)
		}
		var un []string
		for _, u := range f.unmapped() {
			un = append(un, u.Text)
		}
		if !reflect.DeepEqual(un, c.unmapped) {
			t.Errorf("%q: unmapped %q, want %q", c.text, un, c.unmapped)
		}
	}
}

// TestShellCountsLeaveNegatives: a parameter that may be negative takes
// "-5" as minus five, wherever it is written.
func TestShellCountsLeaveNegatives(t *testing.T) {
	shift := manifest("t/shift", "Shift", `{"type":"object","required":["offset"],"properties":{
		"offset":{"type":"integer","description":"Hours to shift by, negative for earlier"}}}`)
	got, err := fillWith(t, shift, "shift -5", rules)
	if err != nil || got["offset"] != int64(-5) {
		t.Errorf("got %#v (%v), want offset -5", got, err)
	}
}

// TestLabelledFieldsNeedTwo: one field name is no list of fields, a name
// where no field starts is no label, and names without values are none.
func TestLabelledFieldsNeedTwo(t *testing.T) {
	for _, text := range []string{
		"mail bob@example.com about the body of the report",
		"mail bob@example.com the subject and the body",
		// Names in a row without values: a question about them.
		"mail bob@example.com the subject and body for the meeting",
		// A value does not run into the next sentence.
		"mail bob@example.com with your subject as Hi. Write the body later",
	} {
		got, err := fillWith(t, ruleMail, text, []rule{mustRule(t, "keyed"), mustRule(t, "labelled_fields")})
		if got["subject"] != nil || got["body"] != nil {
			t.Errorf("%q: got %#v (%v), want no subject and no body from labelled_fields", text, got, err)
		}
	}
}

func mustRule(t *testing.T, name string) rule {
	t.Helper()
	r, ok := ruleNamed(name)
	if !ok {
		t.Fatalf("no rule %q", name)
	}
	return r
}

// TestListsLeaveTheMessage: words after "saying" are the message's, even
// when they read as a list ("done, thanks"), not a copy list's.
func TestListsLeaveTheMessage(t *testing.T) {
	mailCC := manifest("t/mail_cc", "Mail", `{"type":"object","required":["to","subject","body"],"properties":{
		"to":{"type":"string"},"subject":{"type":"string"},"body":{"type":"string"},"cc":{"type":"array","items":{"type":"string"}}}}`)
	got, err := fillWith(t, mailCC, "mail bob@example.com with subject Deploy saying the deploy is done, thanks", rules)
	want := map[string]any{"to": "bob@example.com", "subject": "Deploy", "body": "the deploy is done, thanks"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v (%v), want %#v", got, err, want)
	}
}

// TestKeyedColonAfterItsValue: a colon after a parameter's word is no
// key when the word's own value stands right before it ("the #random
// channel: …", "the acme/api repo: …"): the colon opens what follows, and
// a label's value ("channel: #ops") is still read as one.
func TestKeyedColonAfterItsValue(t *testing.T) {
	post := manifest("t/post", "Post message", `{"type":"object","required":["channel","text"],"properties":{
		"channel":{"type":"string","description":"Channel such as #general"},"text":{"type":"string","description":"Message text"}}}`)
	tests := []struct {
		text string
		want map[string]any
	}{
		{"message the #random channel: pizza is here", map[string]any{"channel": "#random", "text": "pizza is here"}},
		{"ping the #eng-oncall channel: rollback finished", map[string]any{"channel": "#eng-oncall", "text": "rollback finished"}},
		{"post channel: #ops text: deploy done", map[string]any{"channel": "#ops", "text": "deploy done"}},
	}
	for _, tt := range tests {
		got, err := fillWith(t, post, tt.text, rules)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %#v (%v), want %#v", tt.text, got, err, tt.want)
		}
	}
}

// described is m with its description.
func described(m schemas.Manifest, description string) schemas.Manifest {
	m.Description = description
	return m
}

// TestDateTimeTakesOnlyDateTimes: a parameter of format date-time takes
// only what RFC 3339 writes, whatever rule offers it: a clock range the
// moments rule does not read ("10-11am") was the start of an event.
func TestDateTimeTakesOnlyDateTimes(t *testing.T) {
	m := sampleTool(t, "calendar/create_event")
	call, err := Resolve(context.Background(), routed("schedule a design review tomorrow 10-11am with ana@x.io"), m)
	if err == nil {
		t.Fatalf("resolved to %v; want the start asked for", call.Parameters)
	}
	if !strings.Contains(err.Error(), "start") {
		t.Errorf("error %q does not ask for the start", err)
	}
	if !rfc3339("2026-12-01T10:00:00Z") || rfc3339("10-11am") || rfc3339("2026-12-01") {
		t.Error("rfc3339 misreads")
	}
}
