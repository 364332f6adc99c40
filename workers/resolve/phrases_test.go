package resolve

import (
	"testing"
)

// Tools shaped like the requests people write: identifiers, dates, places,
// languages, names and amounts in prose.
var (
	robot = manifest("robots/set_speed", "setRobotSpeed", `{"type":"object","required":["robot_id","speed"],"properties":{
		"robot_id":{"type":"string","description":"The robot's identifier"},
		"speed":{"type":"number","description":"Speed in m/s"}}}`)
	attack = manifest("game/attack", "attackEnemy", `{"type":"object","required":["attacker_id","target_id"],"properties":{
		"attacker_id":{"type":"string"},"target_id":{"type":"string"}}}`)
	platform = manifest("rail/platform_capacity", "getPlatformCapacity", `{"type":"object","required":["platform_id"],"properties":{
		"platform_id":{"type":"integer"}}}`)
	rooms = manifest("hotel/rooms", "getAvailableRooms", `{"type":"object","required":["location","check_in_date","check_out_date"],"properties":{
		"location":{"type":"string"},"check_in_date":{"type":"string"},"check_out_date":{"type":"string"},"guests":{"type":"integer"}}}`)
	pregnancy = manifest("health/pregnancy_week", "getPregnancyWeek", `{"type":"object","required":["due_date","current_date"],"properties":{
		"due_date":{"type":"string"},"current_date":{"type":"string"}}}`)
	booking = manifest("spa/book", "bookSpaTreatment", `{"type":"object","required":["spa_name","date","time","treatment_type","customer_name"],"properties":{
		"spa_name":{"type":"string"},"date":{"type":"string"},"time":{"type":"string"},"treatment_type":{"type":"string"},
		"duration":{"type":"integer"},"customer_name":{"type":"string"}}}`)
	laws = manifest("law/labor_laws", "getLaborLaws", `{"type":"object","required":["country"],"properties":{
		"country":{"type":"string"},"language":{"type":"string"}}}`)
	localize = manifest("l10n/services", "getLocalizationServices", `{"type":"object","required":["source_language","target_language"],"properties":{
		"source_language":{"type":"string"},"target_language":{"type":"string"}}}`)
	game = manifest("games/test", "startGameTesting", `{"type":"object","required":["game_name","platform"],"properties":{
		"game_name":{"type":"string"},"platform":{"type":"string"},"testers":{"type":"integer"}}}`)
	workout = manifest("fitness/progress", "trackWorkoutProgress", `{"type":"object","required":["workout_type"],"properties":{
		"workout_type":{"type":"string"},"difficulty_level":{"type":"string"}}}`)
	player = manifest("sport/player_info", "getPlayerInfo", `{"type":"object","required":["player_name"],"properties":{
		"player_name":{"type":"string"},"team":{"type":"string"}}}`)
	product = manifest("shop/create_product", "createProduct", `{"type":"object","required":["name","price"],"properties":{
		"name":{"type":"string"},"price":{"type":"number"},"stock":{"type":"integer"}}}`)
	salary = manifest("hr/salary_benchmark", "getSalaryBenchmark", `{"type":"object","required":["job_role","location"],"properties":{
		"job_role":{"type":"string"},"location":{"type":"string"},"years_experience":{"type":"integer"}}}`)
	dosage = manifest("med/dosage", "calculateDosage", `{"type":"object","required":["age","patient_weight"],"properties":{
		"patient_weight":{"type":"number"},"age":{"type":"integer"}}}`)
	optimism = manifest("psych/optimism", "getOptimismScore", `{"type":"object","required":["person"],"properties":{
		"person":{"type":"string"}}}`)
	grammar = manifest("text/grammar", "checkGrammar", `{"type":"object","required":["text"],"properties":{
		"text":{"type":"string"}}}`)
	photo = manifest("photo/edit", "editPhoto", `{"type":"object","required":["photo_url"],"properties":{
		"photo_url":{"type":"string"}}}`)
	water = manifest("env/water_quality", "getWaterQuality", `{"type":"object","required":["location"],"properties":{
		"location":{"type":"string"}}}`)
	payment = manifest("course/enroll", "enrollInCourse", `{"type":"object","required":["course_id","payment_method"],"properties":{
		"course_id":{"type":"string"},"payment_method":{"type":"string"}}}`)
	sorter = manifest("data/sort", "sortRecords", `{"type":"object","properties":{
		"order":{"type":"string","enum":["ascending","descending"]},"fmt":{"type":"string","enum":["open_valve","image"]},
		"currency":{"type":"string"},"sex":{"type":"string"},"direction":{"type":"string"}}}`)
	impact = manifest("org/impact", "assessImpact", `{"type":"object","required":["organization"],"properties":{
		"organization":{"type":"string"},"activities":{"type":"string"}}}`)
	cleanliness = manifest("pharma/cleanliness", "validateProductCleanliness", `{"type":"object","required":["product_name"],"properties":{
		"product_name":{"type":"string"},"batch_number":{"type":"string"}}}`)
	joint        = manifest("med/joint", "getJointRangeOfMotion", `{"type":"object","properties":{"joint":{"type":"string"},"symptoms":{"type":"string"}},"required":["symptoms"]}`)
	massTransfer = manifest("chem/mass_transfer", "calculateMassTransferRate", `{"type":"object","required":["substance","area"],"properties":{
		"substance":{"type":"string"},"area":{"type":"number"}}}`)
	cocktail = manifest("bar/cocktail", "makeCocktail", `{"type":"object","required":["cocktail_name","ingredients"],"properties":{
		"cocktail_name":{"type":"string"},"ingredients":{"type":"string"}}}`)
	realEstate = manifest("law/real_estate", "getRealEstateLaw", `{"type":"object","required":["country"],"properties":{
		"country":{"type":"string"},"state":{"type":"string"},"city":{"type":"string"}}}`)
	sales = manifest("shop/sales", "getSalesData", `{"type":"object","properties":{
		"time_period":{"type":"string"},"frequency":{"type":"string"},"difficulty":{"type":"string"},"gender":{"type":"string"}}}`)
	habits = manifest("shop/habits", "getBuyingHabits", `{"type":"object","properties":{
		"frequency":{"type":"string"},"difficulty":{"type":"string"},"gender":{"type":"string"}}}`)
	campaign = manifest("ads/campaign", "createCampaign", `{"type":"object","required":["campaign_name","target_audience"],"properties":{
		"campaign_name":{"type":"string"},"target_audience":{"type":"string"}}}`)
	deploy = manifest("ops/deploy", "deployApplication", `{"type":"object","required":["server"],"properties":{
		"server":{"type":"string"}}}`)
)

func TestResolvePhrases(t *testing.T) {
	tests := []resolveCase{
		// Identifiers.
		{"with the ID, unquoted", robot, "Set the speed of robot with ID Wj6ea0AFaEv to 19.0 meters per second", map[string]any{"robot_id": "Wj6ea0AFaEv", "speed": 19.0}},
		{"noun before ID picks the parameter", attack, "Attack with the attacker ID '8EugX' and target ID '0lqxP'", map[string]any{"attacker_id": "8EugX", "target_id": "0lqxP"}},
		{"ID number coerced to integer", platform, "Provide the capacity of the platform with ID number 61.", map[string]any{"platform_id": int64(61)}},
		{"identified by", robot, "Speed up the robot identified by 'r-7' to 2.5", map[string]any{"robot_id": "r-7", "speed": 2.5}},
		{"ID in an unclosed quote", platform, `Show platform ID "61.`, map[string]any{"platform_id": int64(61)}},
		{"ordinary word after ID is not one", robot, "set robot with ID please speed 3", nil},
		// Dates and times.
		{"from … to dates in declaration order", rooms, "Find rooms in New York from November 25, 2013, to January 7, 2014.", map[string]any{"location": "New York", "check_in_date": "2013-11-25", "check_out_date": "2014-01-07"}},
		{"date cued by its name", pregnancy, "based on a current date of May 11, 2016 and a due date of 6 October 2016", map[string]any{"due_date": "2016-10-06", "current_date": "2016-05-11"}},
		{"a date in the format the description asks for", manifest("t/d", "Trip", `{"type":"object","properties":{"start_date":{"type":"string","description":"Start (DD/MM/YYYY)"}}}`),
			"trip starting June 3, 2025", map[string]any{"start_date": "03/06/2025"}},
		{"ISO and US dates", pregnancy, "due 2016-10-06, now 05/11/2016", map[string]any{"due_date": "2016-10-06", "current_date": "2016-05-11"}},
		{"time to a time parameter", booking, "Book a facial treatment at Tranquil Wellness Center for John Smith on June 24, 2002, at 09:16.",
			map[string]any{"spa_name": "Tranquil Wellness Center", "date": "2002-06-24", "time": "09:16", "treatment_type": "facial", "customer_name": "John Smith"}},
		// Places and languages.
		{"place after in", laws, "Provide information about labor laws in Japan.", map[string]any{"country": "Japan"}},
		{"language after in", laws, "labor laws in Japan in Japanese", map[string]any{"country": "Japan", "language": "Japanese"}},
		{"source and target languages", localize, "Find localization services for translating from English to Chinese.", map[string]any{"source_language": "English", "target_language": "Chinese"}},
		{"place after of", water, "Tell me the water quality of Lake Tahoe.", map[string]any{"location": "Lake Tahoe"}},
		{"plain noun ending the clause", water, "Tell me the water quality of the lake.", map[string]any{"location": "lake"}},
		{"vague word dropped", water, "water quality near the specified address", map[string]any{"location": "address"}},
		{"strong preposition wins over for", salary, "salary benchmark for a Marketing Manager position in Bangalore with 15 years of experience",
			map[string]any{"job_role": "Marketing Manager", "location": "Bangalore", "years_experience": int64(15)}},
		// Values next to the nouns that name them.
		{"quoted after the noun", game, `Start testing the game "Super Mario Bros" on the PC platform.`, map[string]any{"game_name": "Super Mario Bros", "platform": "PC"}},
		{"lower-case word before the noun", workout, "Track the progression of my cardio workouts at a hard level", map[string]any{"workout_type": "cardio", "difficulty_level": "hard"}},
		{"name after named", player, "Tell me the information of the player named Cristiano Ronaldo.", map[string]any{"player_name": "Cristiano Ronaldo"}},
		{"capitalised name before the noun", player, "stats of Cristiano Ronaldo for the Real Madrid team", map[string]any{"player_name": "Cristiano Ronaldo", "team": "Real Madrid"}},
		{"the name's own words are not its value", payment, "Enroll in course ID RM3X9. Choose PayPal as your payment method.", map[string]any{"course_id": "RM3X9", "payment_method": "PayPal"}},
		{"quoted value after an unknown key", grammar, `Check the grammar of the sentence: "The quick brown fox jumps over the lazy dog.`, map[string]any{"text": "The quick brown fox jumps over the lazy dog."}},
		{"key naming the last word of a parameter", photo, `Edit the photo at this URL: "https://example.com/p.jpg"?`, map[string]any{"photo_url": "https://example.com/p.jpg"}},
		{"acronym before a noun is no name; the one code left is the value", deploy, "Deploy to the server at IP address 10.0.0.7.", map[string]any{"server": "10.0.0.7"}},
		// Enum members by synonym, separators, plural or prefix.
		{"enum synonym", sorter, "sort order=asc", map[string]any{"order": "ascending"}},
		{"enum prefix", sorter, "sort order: desc", map[string]any{"order": "descending"}},
		{"enum with other separators", sorter, `sort fmt="open valve"`, map[string]any{"fmt": "open_valve"}},
		{"enum word in plural", sorter, "sort the images", map[string]any{"fmt": "image"}},
		{"enum synonym is not read from prose", sorter, "sort them asc", map[string]any{}},
		// Closed word classes.
		{"currency code, sex and direction", sorter, "for a male patient, moving forward, prices in EUR", map[string]any{"currency": "EUR", "sex": "male", "direction": "forward"}},
		{"currency code must be capitals", sorter, "try again", map[string]any{}},
		{"several words after noun of", workout, "track my progress in the workout of interval sprints in the park", map[string]any{"workout_type": "interval sprints"}},
		// The object of the request fills the one text parameter left.
		{"object after for", massTransfer, "Calculate the mass transfer rate for ethanol with an area of 7.8.", map[string]any{"substance": "ethanol", "area": 7.8}},
		{"object before a generic noun", water, "Assess the water quality for the electronics industry", map[string]any{"location": "electronics"}},
		{"a parameter's own name is no object", cocktail, `make a cocktail called "Mai Tai" with one of the ingredients`, nil},
		{"a phrase qualifying the tool's words is no object", massTransfer, "the rate of ethanol mass transfer over an area of 2", nil},
		// Sentence and clause boundaries.
		{"quoted value before a cue word", cleanliness, "validate the cleanliness of pharmaceutical product 'Tablet' with batch number 'BA456'.", map[string]any{"product_name": "Tablet", "batch_number": "BA456"}},
		{"no value across a full stop", joint, "range of motion of my knee joint. Finally, symptoms: cough", map[string]any{"joint": "knee", "symptoms": "cough"}},
		{"no name across a full stop", optimism, "score for the person Ann Lee. Then stop", map[string]any{"person": "Ann Lee"}},
		{"a number made an adjective is no code", joint, "a 32-year-old with a sore throat", nil},
		{"value after the verb of the name", campaign, `Create a campaign called "Spring Savings" targeting young professionals with a budget of $30.`, map[string]any{"campaign_name": "Spring Savings", "target_audience": "young professionals"}},
		// Places written as an address, periods, levels, frequencies.
		{"address parts finest first", realEstate, "real estate law for a house located in Los Angeles, California, USA.", map[string]any{"city": "Los Angeles", "state": "California", "country": "USA"}},
		{"two address parts: city and country", realEstate, "real estate law in Paris, France", map[string]any{"city": "Paris", "country": "France"}},
		{"relative period", sales, "sales data for dresses over the last month", map[string]any{"time_period": "last month"}},
		{"relative period with a count", sales, "sales in the past 3 years", map[string]any{"time_period": "past 3 years"}},
		{"a word fitting two parameters fills neither", sales, "monthly sales", map[string]any{}},
		{"frequency, level and plural sex", habits, "monthly sales of intermediate courses bought by females", map[string]any{"frequency": "monthly", "difficulty": "intermediate", "gender": "female"}},
		// Names left over go to required text parameters.
		{"a possessive name owns the noun after it", impact, "Assess the impact of Generosity Inc.'s activities in the field of education", map[string]any{"organization": "Generosity Inc."}},
		{"leftover name", optimism, "Provide the optimism score for Alex Johnson.", map[string]any{"person": "Alex Johnson"}},
		{"possessive dropped", optimism, "Tell me Alex Johnson's optimism score.", map[string]any{"person": "Alex Johnson"}},
		// Numbers in prose.
		{"currency sign", product, `Create a product with the name "Lamp" and a price of $19.5`, map[string]any{"name": "Lamp", "price": 19.5}},
		{"thousands and currency", product, `Create a product named "Car" with a price of €12,500`, map[string]any{"name": "Car", "price": 12500.0}},
		{"years old is an age", dosage, "dosage for a patient weighing 31.5 kg who is 55 years old", map[string]any{"patient_weight": 31.5, "age": int64(55)}},
		{"number before a word of the name", product, `add "Pen" for a price of $2 with 40 stock`, map[string]any{"name": "Pen", "price": 2.0, "stock": int64(40)}},
		{"one missing number takes the one number left", robot, "set robot ID r2 to 4.5 please", map[string]any{"robot_id": "r2", "speed": 4.5}},
	}
	checkResolveCases(t, tests)
}

func TestDateParsing(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"2013-11-25", "2013-11-25", true},
		{"2013/11/25", "2013-11-25", true},
		{"11/25/2013", "2013-11-25", true},
		{"2013-13-01", "", false},
		{"25/11/2013", "", false},
		{"1-2-3", "", false},
		{"a-b-c", "", false},
	}
	for _, tt := range tests {
		got, ok := isoDate(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("isoDate(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	clocks := map[string]bool{"09:16": true, "9:16": true, "23:59:59": true, "24:00": false, "10:60": false, "1:2": false, "ab:cd": false, "10": false}
	for in, want := range clocks {
		if got := isClock(in); got != want {
			t.Errorf("isClock(%q) = %v, want %v", in, got, want)
		}
	}
}
