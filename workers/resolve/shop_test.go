package resolve

import "testing"

// Tools of the shop round's tests: a back office's calls, invented here
// (none is in a registry), with bounds, flags, multi-word enum members,
// name pairs and phones.
var (
	shopCancel = manifest("t/cancel", "Cancel order", `{"type":"object","required":["order"],"properties":{
		"order":{"type":"string","description":"Order number"},"notifyBuyer":{"type":"boolean"}}}`)
	shopGadgets = manifest("t/gadgets", "Browse gadgets", `{"type":"object","properties":{
		"category":{"type":"string","enum":["audio","video"]},"inStockOnly":{"type":"boolean"}}}`)
	shopPayments = manifest("t/payments", "List payments", `{"type":"object","properties":{
		"minAmount":{"type":"number","description":"Only payments at least this large"},"merchant":{"type":"string","description":"Merchant name"}}}`)
	shopFlats = manifest("t/flats", "Search flats", `{"type":"object","required":["query"],"properties":{
		"query":{"type":"string","description":"Search text"},
		"minBedrooms":{"type":"integer","description":"Minimum number of bedrooms"},
		"minPrice":{"type":"number","description":"Lowest monthly rent"},
		"maxPrice":{"type":"number","description":"Highest monthly rent"},
		"maxResults":{"type":"integer","description":"Maximum number of results"},
		"furnishedOnly":{"type":"boolean"},"all":{"type":"boolean","description":"Include let flats"}}}`)
	shopCourier = manifest("t/courier", "Book courier", `{"type":"object","required":["parcelId","speed"],"properties":{
		"parcelId":{"type":"string","description":"Parcel ID"},
		"speed":{"type":"string","enum":["same_day","next_day","economy"]},
		"fragile":{"type":"boolean"},"signatureRequired":{"type":"boolean"},"insure":{"type":"boolean"}}}`)
	shopMember = manifest("t/member", "Add member", `{"type":"object","required":["email"],"properties":{
		"email":{"type":"string","format":"email"},"firstName":{"type":"string"},"lastName":{"type":"string"},
		"mobile":{"type":"string","description":"Mobile number"},"labels":{"type":"array","items":{"type":"string"}},
		"newsletter":{"type":"boolean","description":"Send the monthly newsletter"}}}`)
	shopMembers = manifest("t/members", "Find members", `{"type":"object","properties":{
		"tag":{"type":"string"},"count":{"type":"integer","description":"How many to return"}}}`)
	shopIncident = manifest("t/incident", "Open incident", `{"type":"object","required":["summary"],"properties":{
		"summary":{"type":"string","description":"One-line summary"},
		"severity":{"type":"string","enum":["minor","major","critical"]},
		"reporterEmail":{"type":"string","format":"email"}}}`)
	shopCase = manifest("t/case", "Open case", `{"type":"object","required":["title"],"properties":{
		"title":{"type":"string"},"invoiceId":{"type":"string","description":"Invoice ID"}}}`)
	shopAlert = manifest("t/alert", "Post alert", `{"type":"object","required":["channel"],"properties":{
		"channel":{"type":"string","description":"Chat channel"},"ticketId":{"type":"string"}}}`)
	shopHeater = manifest("t/heater", "Set heater", `{"type":"object","properties":{
		"level":{"type":"number","description":"Target level"}}}`)
	shopNudge = manifest("t/nudge", "Nudge heater", `{"type":"object","properties":{
		"step":{"type":"number","description":"How far to move the level"}}}`)
)

func init() {
	for name, cases := range map[string][]ruleCase{
		"enum_phrases": {
			{shopCourier, "courier for parcel PX-88213, same day", M{"parcelId": "PX-88213", "speed": "same_day"}},
		},
		"bounds": {
			{shopFlats, "lofts under £900 with at least 2 bedrooms", M{"query": "lofts", "maxPrice": 900.0, "minBedrooms": int64(2)}},
			{shopFlats, "lofts between 700 and 1100 pounds", M{"query": "lofts", "minPrice": 700.0, "maxPrice": 1100.0}},
		},
		"flags": {
			{shopCourier, "courier for parcel PX-1 next day, fragile, signature required, don't insure it", M{"parcelId": "PX-1", "speed": "next_day", "fragile": true, "signatureRequired": true, "insure": false}},
			// A flag's verb said another way: notify is "let … know", "tell".
			{shopCancel, "cancel order 881 and let the buyer know", M{"order": "881", "notifyBuyer": true}},
			// A flag named "… only" is said without the "only".
			{shopGadgets, "audio gadgets that are in stock", M{"category": "audio", "inStockOnly": true}},
		},
		"marked": {
			{shopMember, "add member ana@club.org labelled alumni and mentor", M{"email": "ana@club.org", "labels": []any{"alumni", "mentor"}}},
		},
		"full_names": {
			{shopMember, "add member: Tomas Berg, tomas@berg.se", M{"email": "tomas@berg.se", "firstName": "Tomas", "lastName": "Berg"}},
		},
		"spaced_phones": {
			{shopMember, "add member lee@club.org, mobile +1 415 555 0199", M{"email": "lee@club.org", "mobile": "+14155550199"}},
		},
	} {
		ruleCases[name] = append(ruleCases[name], cases...)
	}
	// Lead-ins: the words that introduce a value another rule placed are
	// no part of a title or a colon's text.
	ruleCases["titled"] = append(ruleCases["titled"],
		ruleCase{shopCase, "open a case titled Double charge for invoice INV-20931", M{"title": "Double charge", "invoiceId": "INV-20931"}})
	ruleCases["colon_content"] = append(ruleCases["colon_content"],
		ruleCase{shopIncident, "open a major incident: Payments API down for reporter ops@pay.io", M{"summary": "Payments API down", "severity": "major", "reporterEmail": "ops@pay.io"}})
}

// TestShopRules: each of the round's rules on its positives, and the
// requests they must leave alone.
func TestShopRules(t *testing.T) {
	checkGuesses(t, []guessCase{
		// enum_phrases: a negated member, or two, take nothing.
		{"enum_phrases", shopCourier, "courier for parcel PX-7, not next day", M{"parcelId": "PX-7"}},
		{"enum_phrases", shopCourier, "courier for parcel PX-7, same day or next day", M{"parcelId": "PX-7"}},
		// bounds: the number's noun, a tail phrase, and money choosing
		// between two upper bounds.
		{"bounds", shopFlats, "studios, 3 bedrooms or more", M{"query": "studios", "minBedrooms": int64(3)}},
		{"bounds", shopFlats, "studios below 800 dollars", M{"query": "studios", "maxPrice": 800.0}},
		// Two upper bounds and no money or noun to choose: neither.
		{"bounds", shopFlats, "studios, at most 40", M{"query": "studios, at most 40"}},
		// A length of time is no bound of a price.
		{"bounds", shopFlats, "studios listed over 3 days ago", M{"query": "studios listed over 3 days ago"}},
		// A word of the frame after the number is no noun of the bound,
		// even where the bound's description writes it ("at least this
		// large"): "at Amazon" stays for the merchant.
		{"bounds", shopPayments, "payments over 500 at Amazon", M{"minAmount": 500.0, "merchant": "Amazon"}},
		// flags: "all" is no flag's name to read; a flag's words in
		// another clause are not together.
		{"flags", shopFlats, "all furnished studios", M{"query": "all furnished studios"}},
		{"flags", shopMember, "add member bo@club.org and send the monthly newsletter", M{"email": "bo@club.org", "newsletter": true}},
		// marked: a participle's one word ending its clause to a string;
		// more words are a title's.
		{"marked", shopMembers, "members tagged alumni, twelve at most", M{"tag": "alumni", "count": int64(12)}},
		{"marked", ruleIssue, "file an issue titled Login returns 500", M{"title": "Login returns 500"}},
		// full_names: three words are not split, a code is no name.
		{"full_names", shopMember, "add member: Ana Maria Berg, ana@berg.se", M{"email": "ana@berg.se"}},
		// spaced_phones: without a + the groups are numbers.
		{"spaced_phones", shopMember, "add member lee@club.org, +44 20", M{"email": "lee@club.org"}},
		// The number sign is no character of an id; a channel keeps it.
		{"number_sign", shopCourier, "courier for parcel #88213 economy", M{"parcelId": "88213", "speed": "economy"}},
		{"number_sign", shopAlert, "post the alert about ticket #5521 in channel #4411", M{"channel": "#4411", "ticketId": "5521"}},
		// The one number left may be a word ("twelve"), not "one"; a
		// number the level goes up by is no level, but a step's.
		{"loose_numbers", shopHeater, "turn the heater up 2", M{}},
		{"loose_numbers", shopNudge, "nudge the heater up 2", M{"step": 2.0}},
		{"loose_numbers", shopMembers, "find the one tagged alumni", M{"tag": "alumni"}},
	})
}

// TestFlagsInQuestions: a question answered yes or no asks how a thing is;
// its flag words set nothing, as the states rule's do not.
func TestFlagsInQuestions(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"", shopCourier, "is parcel PX-9 fragile?", M{"parcelId": "PX-9"}},
		{"", shopCourier, "parcel PX-9 is fragile, same day", M{"parcelId": "PX-9", "fragile": true, "speed": "same_day"}},
	})
}

// TestFlagVerbs: a flag's verb said another way, and denied.
func TestFlagVerbs(t *testing.T) {
	checkGuessesOn(t, shopCancel, []string{"notifyBuyer"}, []textCase{
		{"cancel order 881 and tell the buyer", M{"notifyBuyer": true}},
		{"cancel order 881, don't let the buyer know", M{"notifyBuyer": false}},
		// The curly apostrophe denies as the straight one does.
		{"cancel order 881, don’t let the buyer know", M{"notifyBuyer": false}},
		{"cancel order 881, let me know when done", M{}},
	})
}
