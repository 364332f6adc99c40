package resolve

import "testing"

// Tools for the plain values a request states without a cue: an
// identifier, a file's name, a brand after "a", a place a trip goes to,
// two enum values written as one compound noun, and a question about how
// things are.
var (
	valCourier = manifest("t/courier", "Courier lookup", `{"type":"object","properties":{
		"waybill_number":{"type":"string","description":"Courier waybill number"},
		"retailer":{"type":"string","description":"Shop it came from, when no waybill number is known"}}}`)
	valSupport = manifest("t/support", "Support desk", `{"type":"object","required":["summary"],"properties":{
		"summary":{"type":"string","description":"What is wrong"},
		"case":{"type":"string","description":"Existing case identifier, if any"}}}`)
	valPeople = manifest("t/people", "People directory", `{"type":"object","required":["person"],"properties":{
		"person":{"type":"string","description":"Person's name"},
		"detail":{"type":"string","enum":["mobile","email","address","website"]}}}`)
	valRoute = manifest("t/route", "Route planner", `{"type":"object","required":["destination"],"properties":{
		"origin":{"type":"string","description":"Where to start"},
		"destination":{"type":"string","description":"Where to end up"},
		"travel":{"type":"string","enum":["car","foot","train"]}}}`)
	valCab = manifest("t/cab", "Cab booking", `{"type":"object","required":["dropoff"],"properties":{
		"dropoff":{"type":"string","description":"Where to drop the rider"},
		"company":{"type":"string","description":"Which cab firm to use"}}}`)
	valRadio = manifest("t/radio", "Radio", `{"type":"object","properties":{
		"station":{"type":"string","description":"Station to tune to"},
		"source":{"type":"string","description":"fm, dab or streamline"}}}`)
	valMail = manifest("t/mail", "Mail", `{"type":"object","required":["to"],"properties":{
		"to":{"type":"string","description":"Recipient"},"body":{"type":"string","description":"Message body"},
		"enclosure":{"type":"string","description":"Path of a document to attach"}}}`)
	valBoard = manifest("t/board", "Pin board", `{"type":"object","required":["board"],"properties":{
		"board":{"type":"string","description":"Board to pin to"},"picture":{"type":"string","description":"What to pin"}}}`)
	valPantry = manifest("t/pantry", "Pantry", `{"type":"object","required":["op"],"properties":{
		"op":{"type":"string","description":"add, remove or list","enum":["add","remove","list"]},
		"items":{"type":"array","items":{"type":"string"}}}}`)
	valMove = manifest("t/move", "Move file", `{"type":"object","required":["source","destination"],"properties":{
		"source":{"type":"string","description":"File to move"},"destination":{"type":"string","description":"Destination path"}}}`)
	valFan = manifest("t/fan", "Fan", `{"type":"object","required":["op"],"properties":{
		"op":{"type":"string","enum":["get","set","list"]},"speed":{"type":"integer"}}}`)
)

func TestValues(t *testing.T) {
	checkGuesses(t, []guessCase{
		// A long run of digits, or of letters and digits, is an
		// identifier; a name outranks a description that only mentions
		// one.
		{"identifier", valCourier, "where's my parcel 7312004458891", M{"waybill_number": "7312004458891"}},
		{"identifier", valCourier, "status of JD014600006281 please", M{"waybill_number": "JD014600006281"}},
		{"identifier", valSupport, "the printer jams again, case 55-ZK-90817", M{"case": "55-ZK-90817"}},
		{"identifier (negative)", valCourier, "parcels sent in 2024", M{}},
		{"identifier (negative)", valCourier, "my last 12 parcels", M{}},
		{"identifier (negative)", valCourier, "the 1500mg vitamins parcel", M{}},
		// Two values of one enum written as a compound: the first says
		// which.
		{"compound enum", valPeople, "what's Ravi Menon's email address", M{"person": "Ravi Menon", "detail": "email"}},
		{"compound enum", valPeople, "Ravi Menon's address", M{"person": "Ravi Menon", "detail": "address"}},
		{"compound enum (negative)", valPeople, "Ravi Menon's email or address", M{"person": "Ravi Menon"}},
		// Where a trip goes: a name, a house number and a name, a place
		// named bare, a possessive's place, "home".
		{"trip", valRoute, "how do I get to Willow Creek Library by train", M{"destination": "Willow Creek Library", "travel": "train"}},
		{"trip", valRoute, "route from school to 40 Maple Row", M{"origin": "school", "destination": "40 Maple Row"}},
		{"trip", valRoute, "how long to Aunt Jo's cabin right now?", M{"destination": "Aunt Jo's cabin"}},
		{"trip", valRoute, "the fastest way home by car", M{"destination": "home", "travel": "car"}},
		{"trip (negative)", valRoute, "route from home", M{"origin": "home"}},
		{"trip (negative)", valMove, "move notes.txt to Documents", M{"source": "notes.txt"}},
		{"trip (negative)", valRoute, "open the home page route", M{}},
		// A name after a/an, via, using or through: the brand.
		{"provider", valCab, "order a Swiftcab to the museum", M{"dropoff": "the museum", "company": "Swiftcab"}},
		{"provider", valRadio, "play jazz via Streamline", M{"source": "Streamline"}},
		{"provider (negative)", valCab, "order a cab to Harbor Point", M{"dropoff": "Harbor Point"}},
		{"provider (negative)", valCab, "order a Friday cab to the pier", M{"dropoff": "the pier"}},
		// A file's name goes to the parameter that takes a file.
		{"file", valMail, "mail Tom the report q3-summary.pdf", M{"to": "Tom", "enclosure": "q3-summary.pdf"}},
		{"file", valBoard, "pin beach.png to the Hikers board", M{"board": "Hikers", "picture": "beach.png"}},
		{"file (negative)", valMail, "mail Tom the report", M{"to": "Tom"}},
		// A question about how things are reads.
		{"state question", valPantry, "what's in the pantry", M{"op": "list"}},
		{"state question", valPantry, "how many tins are left in the pantry?", M{"op": "list"}},
		{"state question", valPantry, "do we have rice?", M{"op": "list"}},
		{"state question", guardDoor, "is the back door locked?", M{"door": "back", "action": "status"}},
		{"state question (negative)", guardDoor, "can you check the back door", M{"door": "back"}},
		{"state question (negative)", valPantry, "have the pantry restocked", M{}},
		{"state question (negative)", valFan, "what's the fan speed", M{}},
	})
}

// TestReviewedEdges: inputs a review found wrong (2026-11-27). A one-letter
// parameter trimmed to nothing panicked the flags rule; a list of words
// was placed in an array of numbers; "between 2 and 3" read words another
// rule had used; a tracking code that opens with a digit was taken for a
// measure; two different units in one order filled one.
func TestReviewedEdges(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"a name trimmed to nothing", oddNames, "I need help", M{}},
		{"participle of a name trimmed to nothing", oddNames, "find movies tagged x", M{}},
		{"words are no numbers", oddNames, "issues labelled bug and urgent", M{}},
		{"a code that opens with a digit", reviewParcel, "where is my parcel 1Z999AA10123456784", M{"tracking_number": "1Z999AA10123456784"}},
		{"a measure is no code", reviewParcel, "a parcel of 1500mg", M{}},
		{"two units, either order", reviewThermostat, "celsius or not, it is 68 degrees fahrenheit", M{"temperature": int64(68)}},
		{"two units, the other order", reviewThermostat, "it is 68 degrees fahrenheit, celsius or not", M{"temperature": int64(68)}},
	})
}

var (
	reviewParcel = manifest("t/parcel", "Track parcel", `{"type":"object","properties":{
		"tracking_number":{"type":"string","description":"Carrier tracking number"}}}`)
	reviewThermostat = manifest("t/thermo", "Thermostat", `{"type":"object","properties":{
		"temperature":{"type":"integer"},"unit":{"type":"string","enum":["C","F"]}}}`)
)
