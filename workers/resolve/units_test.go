package resolve

import "testing"

var (
	// unitsMeasure shows its units as symbols, unitsWorded as names.
	unitsMeasure = manifest("t/measure", "Measure converter", `{"type":"object","required":["amount","source_unit","target_unit"],"properties":{
		"amount":{"type":"number","description":"How much"},
		"source_unit":{"type":"string","description":"Unit to convert from, e.g. oz, ml"},
		"target_unit":{"type":"string","description":"Unit to convert to, e.g. lb, l"},
		"food":{"type":"string","description":"What is measured, e.g. sugar"}}}`)
	unitsWorded = manifest("t/lengths", "Lengths", `{"type":"object","required":["qty","from","to"],"properties":{
		"qty":{"type":"number"},
		"from":{"type":"string","description":"Unit to convert from, e.g. inches"},
		"to":{"type":"string","description":"Unit to convert to, e.g. centimeters"}}}`)
	// unitsOven's enum lists units by name, unitsScale's by symbol.
	unitsOven = manifest("t/oven", "Oven", `{"type":"object","required":["temp"],"properties":{
		"temp":{"type":"number"},"scale":{"type":"string","enum":["celsius","fahrenheit"]}}}`)
	unitsScale = manifest("t/scale", "Log body weight", `{"type":"object","required":["weight"],"properties":{
		"weight":{"type":"number"},"unit":{"type":"string","enum":["kg","lb"]}}}`)
	unitsForecast = manifest("t/forecast", "Forecast", `{"type":"object","required":["city"],"properties":{
		"city":{"type":"string"},"units":{"type":"string","enum":["metric","imperial"]}}}`)
	// unitsDose takes a moment and a dose's unit: a span of time is when.
	unitsDose = manifest("t/dose", "Medicine reminder", `{"type":"object","required":["medicine","at"],"properties":{
		"medicine":{"type":"string"},"dose":{"type":"number"},
		"unit":{"type":"string","description":"Dose unit, e.g. mg, ml"},
		"at":{"type":"string","format":"date-time"}}}`)
	// unitsParcel's unit is an address's, no unit of measurement.
	unitsParcel = manifest("t/parcel", "Ship parcel", `{"type":"object","required":["street"],"properties":{
		"street":{"type":"string"},"unit":{"type":"string","description":"Apartment or unit number"},
		"weight":{"type":"number"}}}`)
)

// TestUnits: the units of a conversion by the words before each, in the
// form the parameter shows; a tool's one unit parameter from the one
// unit said; nothing where no unit or no end is said.
func TestUnits(t *testing.T) {
	ends := []string{"source_unit", "target_unit"}
	checkGuessesOn(t, unitsMeasure, ends, []textCase{
		{"how many ml in a tablespoon", M{"source_unit": "tbsp", "target_unit": "ml"}},
		{"what do 4 ounces of butter weigh in grams", M{"source_unit": "oz", "target_unit": "g"}},
		{"2 teaspoons into millilitres", M{"source_unit": "tsp", "target_unit": "ml"}},
		{"from fluid ounces to liters, 16 of them", M{"source_unit": "fl oz", "target_unit": "l"}},
		{"how many pounds is 3 kilos", M{"source_unit": "kg", "target_unit": "lb"}},
		{"is 30 mph fast in kilometres per hour", M{"source_unit": "mph", "target_unit": "km/h"}},
		// One said: the source with its amount, the target after to.
		{"convert 7 cups", M{"source_unit": "cup"}},
		{"what is 12 in grams", M{"target_unit": "g"}},
		// Negatives: a number with no unit, three units, a letter that
		// is no symbol where nothing says it is one, a time of day.
		{"convert 12", M{}},
		{"convert 3 miles to feet and yards", M{}},
		{"what is plan B", M{}},
		{"convert it at 3 pm", M{}},
	})
	checkGuessesOn(t, unitsWorded, []string{"from", "to"}, []textCase{
		{"5 feet to centimetres", M{"from": "foot", "to": "centimeter"}},
		{"how many inches is 2 meters", M{"from": "meter", "to": "inch"}},
	})
	checkGuesses(t, []guessCase{
		{m: unitsOven, text: "preheat the oven to 400 F", want: M{"temp": 400.0, "scale": "fahrenheit"}},
		{m: unitsOven, text: "oven at 180 degrees C", want: M{"temp": 180.0, "scale": "celsius"}},
		{m: unitsOven, text: "preheat to 200 degrees", want: M{"temp": 200.0}},
		{m: unitsScale, text: "log 71 kilos", want: M{"weight": 71.0, "unit": "kg"}},
		{m: unitsScale, text: "I weighed 154 lbs this morning", want: M{"weight": 154.0, "unit": "lb"}},
		{m: unitsScale, text: "log 5 pounds of flour", want: M{"weight": 5.0, "unit": "lb"}},
		{m: unitsScale, text: "log 71.5", want: M{"weight": 71.5}},
		// Two different units: which one is not said.
		{m: unitsScale, text: "log 70 kg or 154 lb", want: M{}},
		// A unit system's enum takes a unit by its synonyms.
		{m: unitsForecast, text: "forecast for Oslo in fahrenheit", want: M{"city": "Oslo", "units": "imperial"}},
		// Pounds of flour are no currency, and a currency tool has no unit.
		{m: fxBill, text: "bill Acme for 5 pounds of flour", want: M{"client": "Acme", "total": 5.0}},
	})
	checkGuessesOn(t, unitsDose, []string{"unit", "dose"}, []textCase{
		{"remind me at 9pm to take 5 ml of Calpol", M{"dose": 5.0, "unit": "ml"}},
		{"remind me in 10 minutes to take my Calpol", M{}},
	})
	checkGuessesOn(t, unitsParcel, []string{"unit"}, []textCase{
		{"ship 3 kg to Elm Street", M{}},
	})
	// An amount written against its unit reads as the two words.
	checkGuessesOn(t, unitsMeasure, []string{"amount", "source_unit", "target_unit"}, []textCase{
		{"turn 250ml into cups", M{"amount": 250.0, "source_unit": "ml", "target_unit": "cup"}},
		{"how many grams is 3.5oz", M{"amount": 3.5, "source_unit": "oz", "target_unit": "g"}},
	})
	checkGuesses(t, []guessCase{
		{m: unitsScale, text: "log 71kg", want: M{"weight": 71.0, "unit": "kg"}},
		{m: unitsOven, text: "oven at 180°C", want: M{"temp": 180.0, "scale": "celsius"}},
	})
	checkGuessesOn(t, unitsDose, []string{"unit", "dose"}, []textCase{
		{"remind me at 9pm to take 5ml of Calpol", M{"dose": 5.0, "unit": "ml"}},
	})
}

// TestGluedUnitCut: where an amount glued to a unit ends, and the words
// that only look like one (a lone letter, an ordinal, a multiplier, a
// time of day, a size of data, a code).
func TestGluedUnitCut(t *testing.T) {
	for _, c := range []struct {
		word string
		cut  int
	}{
		{"10km", 2}, {"2.5kg", 3}, {"68°F", 2}, {"350°C,", 3}, {"100mph", 3}, {"12oz.", 2}, {"5,000ft", 5}, {"3lbs", 1}, {"30km/h", 2},
		{"5m", 0}, {"4K", 0}, {"70F", 0}, {"2.5L", 0}, {"2nd", 0}, {"3rd", 0}, {"10x", 0}, {"9pm", 0}, {"10am", 0},
		{"64GB", 0}, {"100ms", 0}, {"1080p", 0}, {"12pt", 0}, {"3in", 0}, {"1Z999AA1", 0}, {"km", 0}, {"10", 0}, {"", 0}, {"5°", 0},
	} {
		if got := gluedUnitCut(c.word); got != c.cut {
			t.Errorf("gluedUnitCut(%q) = %d, want %d", c.word, got, c.cut)
		}
	}
}

// TestIngForm: the -ing forms of an enum's verbs, and words that only end
// the same way.
func TestIngForm(t *testing.T) {
	for _, c := range []struct {
		member, word string
		want         bool
	}{
		{"drive", "driving", true}, {"walk", "walking", true}, {"ship", "shipping", true}, {"bike", "biking", true},
		{"replace", "replacing", true}, {"cool", "cooling", true},
		{"drive", "drive", false}, {"ring", "ringing", true}, {"sing", "string", false}, {"go", "going", false},
		{"walk", "walkings", false}, {"view", "viewwing", false}, {"fix", "fixxing", false},
	} {
		if got := ingForm(c.member, c.word); got != c.want {
			t.Errorf("ingForm(%q, %q) = %v, want %v", c.member, c.word, got, c.want)
		}
	}
}
