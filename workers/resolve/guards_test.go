package resolve

import (
	"context"
	"errors"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

var (
	guardSMS = manifest("g/sms", "Send SMS", `{"type":"object","required":["to","text"],"properties":{
		"to":{"type":"string","description":"Phone number or contact name"},"text":{"type":"string","description":"Message body"}}}`)
	guardCam = manifest("g/camera", "Cameras", `{"type":"object","required":["camera"],"properties":{
		"camera":{"type":"string","description":"Camera name, e.g. yard, garage"}}}`)
	guardDoor = manifest("g/locks", "Door locks", `{"type":"object","required":["door","action"],"properties":{
		"door":{"type":"string","description":"Which door, e.g. front, back"},
		"action":{"type":"string","enum":["lock","unlock","status"]}}}`)
	guardRide = manifest("g/ride", "Book a ride", `{"type":"object","required":["dropoff"],"properties":{
		"pickup":{"type":"string","description":"Pickup address"},"dropoff":{"type":"string","description":"Destination address"},
		"service":{"type":"string","description":"uber, lyft or taxi"}}}`)
	guardFood = manifest("g/food", "Food delivery", `{"type":"object","required":["items"],"properties":{
		"restaurant":{"type":"string","description":"Restaurant name"},"items":{"type":"array","items":{"type":"string"}},
		"address":{"type":"string","description":"Delivery address"}}}`)
	guardParcel = manifest("g/parcel", "Send parcel", `{"type":"object","required":["address"],"properties":{
		"address":{"type":"string","description":"Delivery address"},"origin":{"type":"string","description":"Where it is sent from"}}}`)
	guardRemind = manifest("g/reminder", "Create reminder", `{"type":"object","required":["message"],"properties":{
		"message":{"type":"string","description":"What to be reminded about"},"when":{"type":"string","description":"Date and time"}}}`)
	guardShow = func() schemas.Manifest {
		m := manifest("g/podcast", "Podcasts", `{"type":"object","required":["show"],"properties":{
		"show":{"type":"string","description":"Podcast name"},"episode":{"type":"string","description":"Episode title, or 'latest' or 'next'"}}}`)
		m.Description = "Play a podcast episode or follow a show."
		return m
	}()
	guardSeries = manifest("g/tv", "Watch", `{"type":"object","required":["series"],"properties":{
		"series":{"type":"string","description":"Series name"},"season":{"type":"integer"},"episode":{"type":"string","description":"Episode of the series: its title, or 'first' or 'next'"}}}`)
	guardTeam = manifest("g/team", "Team", `{"type":"object","required":["team"],"properties":{
		"team":{"type":"string","description":"Team to add to"},"member":{"type":"string","description":"Member name"}}}`)
	guardCall = manifest("g/call", "Call", `{"type":"object","required":["phone"],"properties":{
		"phone":{"type":"string","description":"Number to dial"}}}`)
	guardGuests = manifest("g/table", "Book table", `{"type":"object","required":["date"],"properties":{
		"date":{"type":"string","description":"Date of the booking"},"number":{"type":"integer","description":"Number of guests"}}}`)
	guardGeo = manifest("g/georemind", "Reminder", `{"type":"object","required":["message"],"properties":{
		"message":{"type":"string","description":"What to be reminded about"},"when":{"type":"string","description":"Date and time"},
		"location":{"type":"string","description":"Place that sets it off when you arrive"}}}`)
	guardGeoLeave = manifest("g/geoleave", "Reminder", `{"type":"object","required":["message"],"properties":{
		"message":{"type":"string","description":"What to be reminded about"},
		"place":{"type":"string","description":"Place whose leaving triggers it"}}}`)
	guardLights = manifest("g/lights", "Set lights", `{"type":"object","required":["room"],"properties":{
		"room":{"type":"string","description":"Room or zone, e.g. kitchen, all"},"on":{"type":"boolean","description":"true to switch on, false to switch off"}}}`)
)

// guessed is what Resolve makes of text: the arguments of a call, or
// those found when a required one is missing.
func guessed(t *testing.T, m schemas.Manifest, text string) map[string]any {
	t.Helper()
	call, err := Resolve(context.Background(), routed(text), m)
	var miss *MissingError
	switch {
	case err == nil:
		return call.Parameters
	case errors.As(err, &miss):
		return miss.Found
	}
	t.Fatalf("Resolve(%q): %v", text, err)
	return nil
}

// TestGuards: each guard keeps a guessing rule from a value the person
// did not mean (the value is then missing and asked for, or another
// parameter's), and the negatives of each stay as they were.
func TestGuards(t *testing.T) {
	checkGuesses(t, []guessCase{
		// A name ends before a subject pronoun, which opens what the
		// message says.
		{"name ends at message", guardSMS, "text Dana I'll be there at noon", M{"to": "Dana", "text": "I'll be there at noon"}},
		{"name ends at message", guardSMS, "text Leo I'm stuck in traffic", M{"to": "Leo", "text": "I'm stuck in traffic"}},
		{"name ends at message", guardSMS, "message Priya we're outside", M{"to": "Priya", "text": "we're outside"}},
		{"name ends at message (negative)", guardSMS, "let Sam know we leave at 6", M{"to": "Sam"}},
		{"name ends at message (negative)", guardSMS, "text Dana Whitfield that dinner is ready", M{"to": "Dana Whitfield", "text": "dinner is ready"}},
		{"name ends at message (negative)", guardSMS, "send Mia a quick text saying the oven is off", M{"to": "Mia", "text": "the oven is off"}},
		// A pronoun alone is no name.
		{"no pronoun value", guardCam, "pull up the feed so I can check who knocked", M{}},
		{"no pronoun value", guardCam, "open the camera so we can see the drive", M{}},
		{"no pronoun value", guardCam, "show me what it sees", M{}},
		{"no pronoun value (negative)", guardCam, "show the Garage camera", M{"camera": "Garage"}},
		{"no pronoun value (negative)", guardCam, "is anyone on the yard camera right now", M{"camera": "yard"}},
		// What a message says is not the words before its noun, nor the
		// word after its verb when who gets it is missing.
		{"content not a modifier", guardSMS, "Send Ravi a plain text, not email: gate code is 2231", M{"to": "Ravi", "text": "gate code is 2231"}},
		{"content not a modifier (negative)", guardSMS, "send Omar a short text: the gate code changed", M{"to": "Omar", "text": "the gate code changed"}},
		{"message verb's object is who", guardSMS, "text 555-0199 saying the door is open", M{"to": "555-0199", "text": "the door is open"}},
		// A phone number goes to the parameter that takes one.
		{"phone shape", guardSMS, "text 555-0173 saying I'm parked outside", M{"to": "555-0173", "text": "I'm parked outside"}},
		{"phone shape", guardSMS, "send a text to 212-555-0187 that the keys are under the mat", M{"to": "212-555-0187", "text": "the keys are under the mat"}},
		{"phone shape", guardSMS, "message +447700900461 saying we landed", M{"to": "+447700900461", "text": "we landed"}},
		{"phone shape", guardCall, "ring 1-800-555-0134", M{"phone": "1-800-555-0134"}},
		{"phone shape (negative)", guardCall, "ring Ana Ortiz", M{}},
		{"phone shape (negative)", guardGuests, "book a table for 2026-12-04 for 4 guests", M{"date": "2026-12-04", "number": int64(4)}},
		// A clause with a verb is no short identifier.
		{"no clause for a name", guardDoor, "the plumber is here: unlock the door by the kitchen", M{"action": "unlock"}},
		{"no clause for a name (negative)", guardDoor, "lock this one: back", M{"action": "lock", "door": "back"}},
		// A service or a kind is no place; where a trip starts is not
		// where it goes.
		{"service not a place", guardRide, "grab me an Uber", M{"service": "Uber"}},
		{"service not a place", guardRide, "call me a Lyft to the stadium", M{"dropoff": "the stadium", "service": "Lyft"}},
		{"service not a place", guardRide, "book a Taxi to the harbour", M{"dropoff": "the harbour", "service": "Taxi"}},
		{"from is no drop-off", guardRide, "pick me up from Central Station", M{"pickup": "Central Station"}},
		{"service not a place (negative)", guardRide, "a ride to Union Square", M{"dropoff": "Union Square"}},
		{"service not a place (negative)", guardRide, "take me to Pier Seven", M{"dropoff": "Pier Seven"}},
		// A street address keeps its house number.
		{"house number", guardRide, "take me to 14 Birch Road", M{"dropoff": "14 Birch Road"}},
		{"house number", guardRide, "leave me at 7b Mill Lane please", M{"dropoff": "7b Mill Lane"}},
		{"house number", guardRide, "a cab to 210-212 Kings Avenue", M{"dropoff": "210-212 Kings Avenue"}},
		{"house number", guardParcel, "ship the box to my sister at 3 Quarry Close", M{"address": "3 Quarry Close"}},
		{"house number (negative)", guardParcel, "ship the box to my sister at Quarry Close", M{"address": "Quarry Close"}},
		{"house number (negative)", guardRide, "a cab to Orchard Court", M{"dropoff": "Orchard Court"}},
		{"house number (negative)", guardRide, "a ride to the 3 Arts Club", M{"dropoff": "the 3 Arts Club"}},
		{"house number (negative)", guardRide, "take me to Gate 5", M{"dropoff": "Gate 5"}},
		// A name after "from" is the seller, never the delivery address.
		{"seller", guardFood, "get two tacos from Casa Verde", M{"restaurant": "Casa Verde"}},
		{"seller", guardFood, "order noodles from Golden Bowl to 4 Birch Road", M{"restaurant": "Golden Bowl"}},
		{"seller", guardFood, "a pizza from Luigi's to 9 Elm Court", M{"restaurant": "Luigi's"}},
		{"from is no delivery address", guardParcel, "send the box from Leeds to Harbor Street", M{"origin": "Leeds"}},
		// A compound noun is taken whole.
		{"compound", guardLights, "dim the dining room lights", M{"room": "dining room"}},
		{"compound", guardLights, "switch off the lights in the laundry room", M{"room": "laundry room", "on": false}},
		{"compound", guardLights, "brighten the living room", M{"room": "living room"}},
		{"compound", guardLights, "dim the lamp in the family room, please", M{"room": "family room"}},
		{"compound (negative)", guardLights, "lights on in the hall", M{"room": "hall", "on": true}},
		{"compound (negative)", guardDoor, "lock the back door", M{"action": "lock", "door": "back"}},
		// What a reminder asks done keeps its verb.
		{"purpose clause", guardRemind, "remind me to call the vet", M{"message": "call the vet"}},
		{"purpose clause", guardRemind, "remind me to water the ferns", M{"message": "water the ferns"}},
		{"purpose clause", guardRemind, "remind me to call grandpa", M{"message": "call grandpa"}},
		{"purpose clause", guardRemind, "remind us to feed the cat", M{"message": "feed the cat"}},
		{"purpose clause (negative)", guardRemind, "remind me about the dentist", M{"message": "the dentist"}},
		// A name written with a noun whose parameter takes no name is the
		// name of the thing that noun is part of.
		{"owner name", guardShow, "pick up the Freakonomics episode where I stopped", M{"show": "Freakonomics"}},
		{"owner name", guardShow, "play the latest Planet Money episode", M{"show": "Planet Money", "episode": "latest"}},
		{"owner name", guardShow, "put on the next episode of Song Exploder", M{"show": "Song Exploder", "episode": "next"}},
		{"owner name", guardShow, "an episode of Reply All, please", M{"show": "Reply All"}},
		{"owner name", guardSeries, "start the next episode of Severance", M{"series": "Severance", "episode": "next"}},
		{"owner name", guardSeries, "the first Fargo episode", M{"series": "Fargo", "episode": "first"}},
		{"owner name (negative)", guardShow, "play the episode called Heat Wave", M{"episode": "Heat Wave"}},
		{"owner name (negative)", guardShow, "follow Planet Money", M{"show": "Planet Money"}},
		{"owner name (negative)", guardTeam, "add Rosa to the Platform team", M{"team": "Platform"}},
		// A "when I get to …" clause says where a reminder goes off; the
		// purpose clause after a prompting verb says what it is about.
		{"trigger place", guardGeo, "When I reach the clinic, nudge me to ask about the test results", M{"location": "the clinic", "message": "ask about the test results"}},
		{"trigger place", guardGeo, "once we arrive at Grandma's house remind us to unload the car", M{"location": "Grandma's house", "message": "unload the car"}},
		{"trigger place", guardGeo, "as soon as I get home, ping me to water the basil", M{"location": "home", "message": "water the basil"}},
		{"trigger place", guardGeo, "remind me to return the drill when I'm at the hardware store", M{"location": "the hardware store", "message": "return the drill"}},
		{"trigger place", guardGeo, "when I get to Union Market remind me to buy lemons", M{"location": "Union Market", "message": "buy lemons"}},
		{"trigger place", guardGeoLeave, "when I leave the library, nudge me to check out the atlas", M{"place": "the library", "message": "check out the atlas"}},
		// An arrival is no departure, nor the other way round.
		{"trigger place (negative)", guardGeo, "when I leave the gym, ping me to stretch", M{"message": "stretch"}},
		{"trigger place (negative)", guardGeoLeave, "when I get to the library, nudge me to renew the card", M{"message": "renew the card"}},
		{"trigger place (negative)", guardGeo, "when I get to it, remind me to sort the mail", M{"message": "sort the mail"}},
		{"trigger place (negative)", guardGeo, "nudge me to call Ravi", M{"message": "call Ravi"}},
		// A list is the things asked for, never the words of a clause.
		{"no clause list", guardFood, "we're famished and can't be bothered; get ramen from Koi", M{"restaurant": "Koi"}},
		{"no clause list", guardFood, "I'm cold and tired, send noodles from Wok Inn", M{"restaurant": "Wok Inn"}},
		{"no clause list", guardFood, "we don't want olives or anchovies, order a pizza from Nico's", M{"restaurant": "Nico's"}},
		{"no clause list", guardFood, "no pickles or onions on the burger from Mel's", M{"restaurant": "Mel's"}},
		// A possessive with nothing owned after it names the place.
		{"place by its owner", guardFood, "a pepperoni pizza from Tony's for tonight", M{"restaurant": "Tony's"}},
		{"place by its owner", guardFood, "order from Rosa's.", M{"restaurant": "Rosa's"}},
		{"no clause list", guardFood, "it's late and hungry kids, order from Saffron", M{"restaurant": "Saffron"}},
		{"no clause list (negative)", guardFood, "order samosas, dal and naan from Saffron", M{"restaurant": "Saffron", "items": []any{"samosas", "dal", "naan"}}},
		{"no clause list (negative)", guardFood, "I want falafel and hummus from Cedar", M{"restaurant": "Cedar", "items": []any{"falafel", "hummus"}}},
		{"no clause list (negative)", guardFood, "get me a burrito and chips from El Sol", M{"restaurant": "El Sol", "items": []any{"burrito", "chips"}}},
	})
}
