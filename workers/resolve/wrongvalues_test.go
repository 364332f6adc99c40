package resolve

import "testing"

// Tools of the tests below: each gives a rule a value it once read wrong
// or dropped.
var (
	// wvListings counts listings and takes a result language as a code.
	wvListings = manifest("t/listings", "Listings search", `{"type":"object","required":["query"],"properties":{
		"query":{"type":"string","x-toolyard-freetext":true},"area":{"type":"string","description":"City or area"},
		"limit":{"type":"integer","default":10,"description":"Maximum number of listings"},
		"lang":{"type":"string","default":"en","description":"Two-letter language code"}}}`)
	wvGlossary = manifest("t/glossary", "Glossary", `{"type":"object","required":["term","target_language"],"properties":{
		"term":{"type":"string"},"target_language":{"type":"string","description":"Language (ISO 639-1 or name)"}}}`)
	wvSubtitles = manifest("t/subtitles", "Subtitles", `{"type":"object","required":["video"],"properties":{
		"video":{"type":"string"},"language":{"type":"string","description":"Subtitle language (ISO 639-1)"}}}`)
	wvSnippet = manifest("t/snippet", "Code snippet", `{"type":"object","required":["task"],"properties":{
		"task":{"type":"string"},"language":{"type":"string","description":"Programming language code, e.g. py"}}}`)
	wvStay = manifest("t/stay", "Hotel stay", `{"type":"object","required":["city"],"properties":{
		"city":{"type":"string"},"nights":{"type":"integer","default":1},"guests":{"type":"integer","default":2}}}`)
	wvWalk = manifest("t/walk", "Walking route", `{"type":"object","required":["area"],"properties":{
		"area":{"type":"string"},"minutes":{"type":"integer","default":30}}}`)
	wvAddress = manifest("t/address", "Geocode", `{"type":"object","properties":{
		"city":{"type":"string"},"country":{"type":"string"}}}`)
	wvBooking = manifest("t/booking", "Book calendar slot", `{"type":"object","required":["title","start"],"properties":{
		"title":{"type":"string"},"start":{"type":"string","format":"date-time"},"length_minutes":{"type":"integer"},
		"place":{"type":"string","description":"Meeting room or address"}}}`)
	wvTicket = manifest("t/ticket", "Open ticket", `{"type":"object","required":["repo","title"],"properties":{
		"repo":{"type":"string","pattern":"^[a-z]+/[a-z]+$","description":"Repository as owner/name"},"title":{"type":"string"},
		"tags":{"type":"array","items":{"type":"string"}}}}`)
	wvPack = manifest("t/pack", "Packing list", `{"type":"object","properties":{
		"things":{"type":"array","items":{"type":"string"}}}}`)
	wvPhrase = manifest("t/phrase", "Phrasebook", `{"type":"object","required":["phrase","language"],"properties":{
		"phrase":{"type":"string"},"language":{"type":"string"}}}`)
)

// TestLanguageCodes: a language named where the parameter asks for its
// ISO 639-1 code is written as the code; where a name will do, or the
// language has no code, as written; a word that is no language we know
// ("Java") fills no language parameter.
func TestLanguageCodes(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"code", wvListings, "bike shops in Ghent, in Dutch", M{"query": "bike shops", "area": "Ghent", "lang": "nl", "limit": int64(10)}},
		{"code", wvSubtitles, "subtitles for clip42 in Farsi", M{"video": "clip42", "language": "fa"}},
		{"code", wvSubtitles, "subtitles for clip42 in Norwegian", M{"video": "clip42", "language": "nb"}},
		{"name will do", wvGlossary, "term=onboarding, in Spanish", M{"term": "onboarding", "target_language": "Spanish"}},
		{"no code", wvSubtitles, "subtitles for clip42 in Cantonese", M{"video": "clip42", "language": "Cantonese"}},
		{"no language", wvSnippet, "a snippet to parse dates in Java", M{"task": "parse dates in Java"}},
	})
}

// TestCountFrames: the bound and the noun written around a count placed
// in a parameter are no words of what is searched for; a noun the count
// does not name is.
func TestCountFrames(t *testing.T) {
	checkGuessesOn(t, wvListings, []string{"query", "limit"}, []textCase{
		{"loft apartments, max 40 results", M{"query": "loft apartments", "limit": int64(40)}},
		{"loft apartments, up to 25 listings", M{"query": "loft apartments", "limit": int64(25)}},
		{"loft apartments, at most 5 entries", M{"query": "loft apartments", "limit": int64(5)}},
		{"find 12 plumbers", M{"query": "plumbers", "limit": int64(12)}},
	})
}

// TestWholePlaces: a city with its state or country after a comma is one
// place for one place parameter, parted where the tool takes each part;
// two places stay two.
func TestWholePlaces(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"one place", wvListings, "bakeries in Portland, Maine", M{"query": "bakeries", "area": "Portland, Maine", "limit": int64(10), "lang": "en"}},
		{"one place", wvListings, "bakeries in Lyon, France", M{"query": "bakeries", "area": "Lyon, France", "limit": int64(10), "lang": "en"}},
		{"a state's code", wvListings, "bakeries in Springfield, IL", M{"query": "bakeries", "area": "Springfield, IL", "limit": int64(10), "lang": "en"}},
		{"a country's code", wvListings, "bakeries in Leeds, UK", M{"query": "bakeries", "area": "Leeds, UK", "limit": int64(10), "lang": "en"}},
		{"parted", wvAddress, "geocode the bakery in Lyon, France", M{"city": "Lyon", "country": "France"}},
		{"two places", wvListings, "bakeries in Paris, then Rome", M{"query": "bakeries then Rome", "area": "Paris", "limit": int64(10), "lang": "en"}},
	})
}

// TestNumberNouns: "a 3-night stay" is the number of the parameter named
// for nights; a number-noun no parameter is named for fills nothing.
func TestNumberNouns(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"named", wvStay, "a 3-night stay in Kyoto", M{"city": "Kyoto", "nights": int64(3), "guests": int64(2)}},
		{"named", wvWalk, "a 45-minute walk around Soho", M{"area": "Soho", "minutes": int64(45)}},
		{"unnamed", wvStay, "a 5-star hotel in Kyoto", M{"city": "Kyoto", "nights": int64(1), "guests": int64(2)}},
	})
}

// TestNamedVenues: a place written as its kind and its name ("room
// Vega", "room 4") goes whole to a parameter for that kind of place, not
// to one for a city; a venue's number is no quantity.
func TestNamedVenues(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"venue", wvBooking, `book "Retro" tomorrow at 3pm in room Vega`, M{"title": "Retro", "start": "2026-11-28T15:00:00Z", "place": "room Vega"}},
		{"numbered venue", wvBooking, `book "Retro" tomorrow at 3pm in room 4`, M{"title": "Retro", "start": "2026-11-28T15:00:00Z", "place": "room 4"}},
		{"coded venue", wvBooking, `book "Retro" tomorrow at 3pm in room 2B`, M{"title": "Retro", "start": "2026-11-28T15:00:00Z", "place": "room 2B"}},
		{"a venue's number is no length", wvBooking, `book "Retro" tomorrow at 3pm at gate 12`, M{"title": "Retro", "start": "2026-11-28T15:00:00Z"}},
		{"a venue inside a place", ruleRide, "a ride to Midway terminal 2 please", M{"dropoff": "Midway terminal 2"}},
		{"a length beside a venue", wvBooking, `book "Retro" tomorrow at 3pm for 45 minutes in room 12`, M{"title": "Retro", "start": "2026-11-28T15:00:00Z", "length_minutes": int64(45), "place": "room 12"}},
		{"not a city", wvListings, "desks in room Vega", M{"query": "desks in room Vega", "limit": int64(10), "lang": "en"}},
	})
}

// TestCodeNumbers: a number a noun says is a code ("zip code 94103",
// "area code 415", "extension 204") is no count of what a tool finds.
func TestCodeNumbers(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"area code", wvListings, "dentists in area code 415", M{"query": "dentists in area code 415", "limit": int64(10), "lang": "en"}},
		{"zip code", wvListings, "top 30 bakeries near zip code 94103", M{"query": "bakeries near zip code 94103", "limit": int64(30), "lang": "en"}},
		{"a count still", wvListings, "find 12 plumbers", M{"query": "plumbers", "limit": int64(12), "lang": "en"}},
	})
}

// TestLengthIsNoCount: a length of time is no count of what a tool
// returns ("for the last 15 minutes" is no 15 lines); a parameter named
// for its unit takes it.
func TestLengthIsNoCount(t *testing.T) {
	lines := manifest("t/lines", "Log lines", `{"type":"object","required":["pod"],"properties":{
		"pod":{"type":"string","description":"Pod name"},"tail_lines":{"type":"integer","description":"Number of lines from the end"}}}`)
	days := manifest("t/days", "Forecast", `{"type":"object","required":["city"],"properties":{
		"city":{"type":"string"},"days":{"type":"integer","description":"How far ahead"}}}`)
	checkGuesses(t, []guessCase{
		{"a length", lines, "logs of web-1 for the last 15 minutes", M{"pod": "web-1"}},
		{"a count", lines, "the last 40 lines of web-1", M{"pod": "web-1", "tail_lines": int64(40)}},
		{"the unit's parameter", days, "weather in Oslo over the next 4 days", M{"city": "Oslo", "days": int64(4)}},
	})
}

// TestListNouns: the list parameter's own noun before its items is none
// of them; a noun of no list parameter is an item.
func TestListNouns(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"own noun", wvTicket, "open a ticket in web/app titled Slow search with tags perf and ui", M{"repo": "web/app", "title": "Slow search", "tags": []any{"perf", "ui"}}},
		{"an item", wvPack, "pack labels, tape and scissors", M{"things": []any{"labels", "tape", "scissors"}}},
	})
}

// TestBooked: the thing a request books is its title, with the person it
// is with; the tool's own words or a reference name nothing, and a title
// written as such wins.
func TestBooked(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"booked", wvBooking, "book a 45 minute budget review tomorrow at 3pm in room Vega", M{"title": "budget review", "start": "2026-11-28T15:00:00Z", "length_minutes": int64(45), "place": "room Vega"}},
		{"with a person", wvBooking, "put coffee with Dana on my calendar for Monday at 9am", M{"title": "coffee with Dana", "start": "2026-11-30T09:00:00Z"}},
		{"set up", wvBooking, "set up a design sync tomorrow at 4pm", M{"title": "design sync", "start": "2026-11-28T16:00:00Z"}},
		{"ends at a repetition", wvBooking, "schedule standup every day at 9", M{"title": "standup", "start": "2026-11-28T09:00:00Z"}},
		{"own words", ruleMeeting, "schedule a meeting tomorrow at 9am", M{"start": "2026-11-28T09:00:00Z"}},
		{"reference", wvBooking, "book it tomorrow at 3pm", M{"start": "2026-11-28T15:00:00Z"}},
		{"titled wins", wvBooking, "book a slot called Retro tomorrow at 3pm", M{"title": "Retro", "start": "2026-11-28T15:00:00Z"}},
		{"put nowhere", wvBooking, "add a walk tomorrow at 4pm", M{"start": "2026-11-28T16:00:00Z"}},
		{"no title parameter", ruleRemind, "schedule a dentist visit tomorrow at 9am", M{"at": "2026-11-28T09:00:00Z"}},
	})
}

// TestSayIn: in "how do you say X in LANGUAGE", X is the text; a
// reference is left to the context, and "in" before no language ends
// nothing.
func TestSayIn(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"say in", wvPhrase, "how do you say where is the bakery in Italian", M{"phrase": "where is the bakery", "language": "Italian"}},
		{"say in", wvPhrase, "how would I say I love you in French?", M{"phrase": "I love you", "language": "French"}},
		{"reference", wvPhrase, "how do you say this sentence in Italian", M{"language": "Italian"}},
		{"reference", wvPhrase, "say it in Italian", M{"language": "Italian"}},
	})
}

// TestColonAfterValue: a colon right after a value another rule placed
// still introduces the text; after a message verb and who gets it, the
// message; the app named after who ("on slack"), when it is the tool's
// own, is not part of who.
func TestColonAfterValue(t *testing.T) {
	slack := manifest("t/slack", "Post Slack message", `{"type":"object","required":["channel","text"],"properties":{
		"channel":{"type":"string","description":"Channel or user"},"text":{"type":"string","description":"Message text"}}}`)
	checkGuesses(t, []guessCase{
		{"own app", slack, "message Dana on slack: call me", M{"channel": "Dana", "text": "call me"}},
		{"own app", slack, "ping ops via the slack app: deploy done", M{"channel": "ops", "text": "deploy done"}},
		{"not the app", slack, "message the team on call: deploy done", M{"channel": "the team on call", "text": "deploy done"}},
		{"text", wvTicket, "open a ticket on web/app: search is slow on mobile", M{"repo": "web/app", "title": "search is slow on mobile"}},
		{"message", ruleChatApp, "dm Dario on signal: running late", M{"app": "signal", "chat": "Dario", "text": "running late"}},
	})
}
