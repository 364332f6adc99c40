package resolve

// rule is one step of filling a call's arguments from an intent's words.
// Rules run in table order; a parameter set by an earlier rule is not
// overwritten by a later one, and a word a rule used is not read again.
type rule struct {
	// name identifies the rule in tests and the package doc.
	name string
	// doc says what the rule reads, in a line.
	doc string
	// apply fills what it can; free is the tool's free-text parameter, or
	// nil.
	apply func(f *filler, free *property)
	// guess marks the rules that place leftover words rather than read a
	// value written for a parameter: they read the intent only, never its
	// context.
	guess bool
}

// rules is the resolver, in order. Each rule's tests are in
// rules_test.go, under its name.
var rules = []rule{
	{name: "statements", doc: "a SQL statement (SELECT … FROM, INSERT INTO, UPDATE … SET, DELETE FROM, WITH … AS) written in the request, whole, to the parameter that takes SQL; to the closing quote or backtick, else to where prose resumes (\", then …\", \"and email it …\") or the end",
		apply: func(f *filler, _ *property) { f.applyStatements() }},
	{name: "keyed", doc: "key=value, key: value and key=\"quoted\" pairs; then the rest splits into words",
		apply: func(f *filler, _ *property) { f.applyKeyed(); f.tokenizeRest() }},
	{name: "shell_counts", doc: "a count written as a command's option right after a word of the tool's name (\"head -5 notes.txt\", \"tail -n20 app.log\", \"tail -n 20\") to the one missing integer parameter that cannot be negative: there \"-5\" is the option, never minus five",
		apply: func(f *filler, _ *property) { f.applyShellCounts() }},
	{name: "listed_codes", doc: "a code that one missing text parameter's description shows with a number (\"an input such as HDMI 2\"), written with its number (\"switch to HDMI 1\"), to that parameter whole",
		apply: func(f *filler, _ *property) { f.applyListedCodes() }},
	{name: "cron", doc: "a recurrence in words (\"every Monday at 9am\", \"weekdays at 8:30\") to a parameter that takes a cron expression, as one",
		apply: func(f *filler, _ *property) { f.applyCron() }},
	{name: "repeat_days", doc: "a recurrence in words (\"on weekdays\", \"every Saturday\", \"on Mondays and Wednesdays\", \"daily\") to a plain string parameter for the days a thing repeats on, as day words (\"weekdays\", \"Saturday\", \"Monday, Wednesday\")",
		apply: func(f *filler, _ *property) { f.applyRepeatDays() }},
	{name: "date_ranges", doc: "a period (\"over the last 90 days\", \"last week\", \"this month\", \"March 2024\", \"Q3\", \"in 2023\", \"year to date\") to a tool's start and end date parameters as its first and last days; after since/from only the start, after until/through only the end",
		apply: func(f *filler, _ *property) { f.applyDateRanges() }},
	{name: "moments", doc: "a day and a time of day (\"tomorrow at 3pm\", \"on Monday at 10am\", \"in 2 hours\"; on an alarm or wake-up tool \"for 8\") to a date-time parameter, as RFC 3339 in the worker's time zone; a day named from today to a date parameter",
		apply: func(f *filler, _ *property) { f.applyMoments() }},
	{name: "durations", doc: "a length of time (\"10 minutes\", \"1 hour 30 minutes\", \"a 45-minute …\", halves whole: \"an hour and a half\", \"half an hour\"; compact: \"45m\") to a string parameter named for one, compact (\"10m\") when its description writes lengths so",
		apply: func(f *filler, _ *property) { f.applyDurations() }},
	{name: "lengths", doc: "a length of time with its unit (\"over 30 years\", \"a 2-year term\") to the one missing numeric parameter for a length (term, duration, timeout …) whose unit, after \"in\" in its description or ending its name (\"Term in months\", duration_minutes), is of the same kind, converted to it (360)",
		apply: func(f *filler, _ *property) { f.applyLengths() }},
	{name: "percentages", doc: "the one percentage written (\"at 6.5%\", \"20 percent\") to the one missing numeric parameter described in percent, as written, or as a rate in fractions of one (\"e.g. 0.05\"), divided by 100; a rate with no scale takes none; then the one missing enum parameter with a member for percentages (\"a 15% off coupon\" → discountType percent)",
		apply: func(f *filler, _ *property) { f.applyPercentages() }},
	{name: "dates", doc: "dates and times, in any common form, to date and time parameters",
		apply: func(f *filler, _ *property) { f.applyDates() }},
	{name: "ids", doc: "identifiers introduced as such (\"with the ID X\") to …_id parameters",
		apply: func(f *filler, _ *property) { f.applyIDs() }},
	{name: "numbered", doc: "a thing's number written as such (\"#123\") or after the initials of the tool's thing (\"PR 310\" on a pull request tool) to the one missing parameter for that number (pull_number, job_id)",
		apply: func(f *filler, _ *property) { f.applyNumbered() }},
	{name: "currencies", doc: "a conversion's currencies (\"8,450 CHF to euros\", \"5,000 yen in British pounds\") to the source and target currency parameters as ISO 4217 codes: after to/in/into the target, after from or an amount the source; a tool's one currency parameter, the code of the one currency named (\"an invoice in euros\" → EUR)",
		apply: func(f *filler, _ *property) { f.applyCurrencies() }},
	{name: "units", doc: "units of measurement (\"convert 10 miles to kilometers\", \"how many grams is 3 cups\", \"68 degrees fahrenheit\") to the parameters that take a unit: after its amount or from the source, after to/into/in or \"how many\" the target; as the description shows units (\"e.g. mi, km\" → mi) or the enum's member (F)",
		apply: func(f *filler, _ *property) { f.applyUnits() }},
	{name: "spaced_phones", doc: "an international phone number written in groups (\"+34 612 345 678\") to the one missing phone parameter, joined (+34612345678)",
		apply: func(f *filler, _ *property) { f.applySpacedPhones() }},
	{name: "cued_quoted", doc: "a quoted value right after a parameter's name",
		apply: func(f *filler, _ *property) { f.applyCuedQuoted() }},
	{name: "flags", doc: "a boolean parameter's name written as words of the request (\"notify the customer\", \"restock the items\", \"insured\", \"in stock only\", \"dry run\", \"dry-run\", \"delete the branch\"; any order, any inflection, two other words among them at most; a last \"only\" unsaid, \"in stock\"; its verb notify said as tell, inform, alert or \"let … know\") sets it true, false after a negation (\"don't notify the customer\", \"no dry run\", \"without versioning\") or before disabled/off; nothing in a question about how things are (\"is the door locked\"); never the request's verb alone (\"update the record\"), nor a name with no word of four letters (on, off, all)",
		apply: func(f *filler, _ *property) { f.applyFlags() }},
	{name: "named_it", doc: "a parameter's name used as a verb on it or them, and one word (\"label it bug\", \"tag them as urgent\")",
		apply: func(f *filler, _ *property) { f.applyNamedIt() }},
	{name: "marked", doc: "the values after a participle of a missing parameter's one-word name (\"customers tagged wholesale\", \"tagged vip and wholesale\", \"labelled urgent\"): a list to an array of strings, one word that ends its clause to a string",
		apply: func(f *filler, _ *property) { f.applyMarked() }},
	{name: "bounds", doc: "a number a comparison makes a bound (\"under $80\", \"at least 4 stars\", \"between 50 and 120 dollars\", \"ten at most\") to the missing numeric parameter named for that bound (minPrice, max_rating): the one there is, else the one whose other words the request writes, else for money the one named for it; the comparison and the number's noun go with it",
		apply: func(f *filler, _ *property) { f.applyBounds() }},
	{name: "labelled_fields", doc: "two or more text parameters listed by name, each followed by its value (\"with subject Weekly report and body the numbers are attached\", \"subject: Hi, body: see you\"): each value runs to the next name or the end",
		apply: func(f *filler, _ *property) { f.applyLabelledFields() }},
	{name: "cues", doc: "a parameter's name followed (numbers: or preceded) by a value that looks like one; a title written as a sentence to the end of its clause (\"with the title Fix typos in README\")",
		apply: func(f *filler, _ *property) { f.applyCues() }},
	{name: "refs", doc: "a git ref after its cue (\"from feature/login\", \"into develop\", \"off main\", \"on branch release/2.3\", \"tag v1.4.2\", \"a branch called feat/sso\", \"on main\") to the ref parameter of that role: where a change comes from (head, from_ref), where it goes (base), else the one ref",
		apply: func(f *filler, _ *property) { f.applyRefs() }},
	{name: "scoped_lists", doc: "a list after a cue of exclusion (excluding, except, without, ignoring, but not, other than …: \"excluding node_modules and .git\") to the one missing list of strings named for it (exclude…, ignore…, skip…), after \"including\" to one named include…; the cue is no item",
		apply: func(f *filler, _ *property) { f.applyScopedLists() }},
	{name: "shapes", doc: "paths, URLs, e-mail addresses, globs and phone numbers to parameters named for them, or described so (phones; a file's name to an attachment: \"Path of a photo or file to attach\")",
		apply: func(f *filler, _ *property) { f.applyShapes() }},
	{name: "full_names", doc: "a person's name of two capitalised words (\"add a customer: Maria Lopez\") to the missing given- and family-name parameters (firstName and lastName, given_name and surname), a word each",
		apply: func(f *filler, _ *property) { f.applyFullNames() }},
	{name: "identifiers", doc: "a bare identifier, a long run of digits or of letters and digits (\"package 9400111899223344556677\"), to the one missing text parameter named for one (tracking_number, order_id), else described as one; a code whose letters name the parameter (\"SKU-300\" → sku, \"INV2041\" → invoice_ref)",
		apply: func(f *filler, _ *property) { f.applyIdentifiers() }},
	{name: "named_files", doc: "a file name after named, called or matching to a glob parameter (\"files named notes.txt\"): a name is a pattern that matches itself",
		apply: func(f *filler, _ *property) { f.applyNamedFiles() }},
	{name: "extensions", doc: "a file extension written as such (\".txt files\") to a glob parameter, as the pattern \"*.txt\"",
		apply: func(f *filler, _ *property) { f.applyExtensions() }},
	{name: "heads", doc: "a value next to the noun a parameter is named for (\"the Sales team\", \"in namespace payments\"); a name with the noun of a parameter that takes no name, to the missing one whose kind holds it (\"the Radiolab episode\" → show)",
		apply: func(f *filler, _ *property) { f.applyHeads() }},
	{name: "providers", doc: "a name after a/an, via, using or through (\"book an Uber\", \"a ride via Lyft\") to the one missing text parameter whose description writes it, else the one for a service, brand or app",
		apply: func(f *filler, _ *property) { f.applyProviders() }},
	{name: "owners", doc: "a capitalised name after \"for\" (\"overdue invoices for Acme Corp\") to the one missing text parameter named for whom things belong to (customer, client, user …) and described as a name or id, optional or not; not while a place parameter is missing",
		apply: func(f *filler, _ *property) { f.applyOwners() }},
	{name: "languages", doc: "language names to language parameters (from/to for source and target), as the ISO 639-1 code where the parameter asks for a code (\"in Portuguese\" → pt)",
		apply: func(f *filler, _ *property) { f.applyLanguages() }},
	{name: "scopes", doc: "the word after in/on to the one missing scope parameter (namespace, region, cluster, environment … without an enum): a code (\"in us-east-1\"), a plain word ending its clause or meeting a preposition (\"pods in payments\"), or any word before the parameter's own noun (\"in the default namespace\"); no idiom (\"in detail\"), time or capitalised name",
		apply: func(f *filler, _ *property) { f.applyScopes() }},
	{name: "places", doc: "places after in/at/near/from to location, city, country … parameters (\"Austin, Texas\" one place; \"in room Orion\" whole where the parameter is for rooms); the place of a \"when I get to …\" clause to the place parameter it sets off; a room right before the tool's own noun (\"the hallway lights\") to a room or zone parameter",
		apply: func(f *filler, _ *property) { f.applyPlaces() }},
	{name: "destinations", doc: "where a trip goes, after to, and where it starts, after from, to destination and origin parameters: a phrase with a determiner (\"a ride to the airport\"), a name (\"bike to Golden Gate Park\"), a place named bare (\"from work\"); \"home\" with no to (\"an Uber home\")",
		apply: func(f *filler, _ *property) { f.applyDestinations() }},
	{name: "zones", doc: "a zone name or a place of the time zone database (\"Tokyo\") to a time zone parameter",
		apply: func(f *filler, _ *property) { f.applyZones() }},
	{name: "states", doc: "a state word (on/off as a switching verb's particle, \"turn off the lights\", \"lights off\"; lock, open, start … as the request's verb) to the one parameter whose enum or description holds it; \"open\" said of the places asked for to a boolean open_now",
		apply: func(f *filler, _ *property) { f.applyStates() }},
	{name: "sort_keys", doc: "the key a listing is ordered by (\"biggest first\" → size, \"newest first\" → a date or modified member, \"by size\", \"alphabetically\" → name) to the one missing enum parameter named for sorting, as its one member of that kind",
		apply: func(f *filler, _ *property) { f.applySortKeys() }},
	{name: "enum_phrases", doc: "an enum member of several words joined (next_day, out_of_stock, fixed-amount) written as its words (\"DHL next day\", \"because it's out of stock\") to the one missing parameter whose enum holds it; not after a negation",
		apply: func(f *filler, _ *property) { f.applyEnumPhrases() }},
	{name: "enum_words", doc: "a word equal to one enum value of exactly one missing parameter, or a verb member's -ing form (\"driving directions\" → drive); two values written as one compound noun (\"email address\") are the first; the article \"a\" is no member \"A\"",
		apply: func(f *filler, _ *property) { f.applyEnumWords() }},
	{name: "state_questions", doc: "a request that opens as a question about how things are (\"is the back door locked?\", \"what's on the list\"; not \"can you …\") to the one missing enum parameter with one value that reads (status, read, get …)",
		apply: func(f *filler, _ *property) { f.applyStateQuestions() }},
	{name: "percentiles", doc: "the percentiles asked for (\"the 90th and 99th percentiles\", \"p99\", \"median\" for 50) to the one missing numeric parameter, or list of numbers, named or described for percentiles, in the order written",
		apply: func(f *filler, _ *property) { f.applyPercentiles() }},
	{name: "tables", doc: "a snake_case identifier after \"of\" (\"the mean of latency_ms\") to the one missing text parameter for a column; a lower-case word after in/from that ends its clause, or a snake_case one (\"… in requests\"), to the one for a table",
		apply: func(f *filler, _ *property) { f.applyTables() }},
	{name: "listed_values", doc: "a word, in lower case, that the descriptions list as a value of one missing text parameter (\"a metric (e.g. revenue, dau)\" → dau), the tool's description where the list follows the parameter's noun",
		apply: func(f *filler, _ *property) { f.applyListedValues() }},
	{name: "vocabularies", doc: "currency, sex, direction, level and frequency words to the parameter named for them",
		apply: func(f *filler, _ *property) { f.applyVocabularies() }},
	{name: "frequencies", doc: "an adverb of frequency (\"monthly prices\", \"weekly cohorts\"; not \"monthly active users\") to the one missing enum parameter named for a grain or interval, as the member that codes it (\"1mo\", \"month\", \"M\", \"P1M\")",
		apply: func(f *filler, _ *property) { f.applyFrequencies() }},
	{name: "tickers", doc: "the one code in capitals of the request (\"MSFT price\", first word included) to the one missing parameter described as a ticker; a company's name is no ticker and is reported",
		apply: func(f *filler, _ *property) { f.applyTickers() }},
	{name: "periods", doc: "a relative period (\"over the last month\") to a period or timeframe parameter",
		apply: func(f *filler, _ *property) { f.applyPeriods() }},
	{name: "axes", doc: "for a chart's missing x and y axis parameters, the plain words before by/against/vs/versus/per to y and those after it to x (\"a bar chart of revenue by region\" → y revenue, x region); never after sorted/ordered by, nor a name, number or time after the link",
		apply: func(f *filler, _ *property) { f.applyAxes() }},
	{name: "breakdowns", doc: "the plain words after \"by\" (\"signups by acquisition channel\", \"by country and plan\") to the one parameter for the dimensions to split by (group by, dimensions, breakdown); a time grain (\"by week\") to a grain parameter instead; never after sorted/ordered/ranked by, nor a name, number or time after by",
		apply: func(f *filler, _ *property) { f.applyBreakdowns() }},
	{name: "described_counts", doc: "a number in the phrase a description writes with N (\"the first 5 lines\")",
		apply: func(f *filler, _ *property) { f.applyDescribedCounts() }},
	{name: "singular_counts", doc: "\"the first line\", \"the top result\": one of what a count parameter counts, when no number is written",
		apply: func(f *filler, _ *property) { f.applySingularCounts() }},
	{name: "loose_numbers", doc: "numbers by their nouns (\"55 years old\", \"a 5-day forecast\"), and one number for one numeric parameter; the bound and noun framing a count (\"max 30 results\") go with it",
		apply: func(f *filler, _ *property) { f.applyLooseNumbers() }},
	{name: "particles", doc: "the particle of the request's phrasal verb (\"echo back\", \"read out\", \"look up\") is no word of a value; nor the verb, when not the tool's own", guess: true,
		apply: func(f *filler, _ *property) { f.applyParticles() }},
	{name: "bare_quoted", doc: "any other quoted value to the first missing required text parameter, then free text", guess: true,
		apply: (*filler).applyBareQuoted},
	{name: "ordered_numbers", doc: "numbers in order to required numbers that differ only by order (a, b)", guess: true,
		apply: func(f *filler, _ *property) { f.applyOrderedNumbers() }},
	{name: "contents", doc: "what the request's thing is to hold, after it and containing, that says, with the text … (\"create /tmp/todo.txt containing buy milk\"), verbatim to the end, to the one missing content, text, body or data parameter", guess: true,
		apply: func(f *filler, _ *property) { f.applyContents() }},
	{name: "named_phrase", doc: "the words after a parameter's name used as a noun (\"echo the message hello\")", guess: true,
		apply: (*filler).applyNamedPhrase},
	{name: "titled", doc: "what a thing is called, after called, titled, named or labelled, to the end of the clause (a slug alone: \"named acme-logs-prod\"), to the one required title parameter missing (\"an issue called Login fails on Safari\"), else the one parameter missing that names the tool's thing (a timer's label), which \"for the X\" fills too (\"a timer for the pasta\")", guess: true,
		apply: func(f *filler, _ *property) { f.applyTitled() }},
	{name: "colon_content", doc: "what a colon introduces, verbatim, to the one required text parameter missing, or the one named for content, even optional (\"post to #ops: deploy done\", also after a value another rule placed: \"file a bug on acme/api: …\"); after a sending verb and who gets it, to the message parameter, who to the chat (\"Telegram the climbing club: meet at 8\")", guess: true,
		apply: func(f *filler, free *property) { f.applyColonContent(free) }},
	{name: "say_in", doc: "what to say in a language a language parameter took (\"how do you say thank you very much in German\", \"say good night in Japanese\"), the words between say and the language, to the one required text parameter missing", guess: true,
		apply: func(f *filler, _ *property) { f.applySayIn() }},
	{name: "said", doc: "what a message says, after say, saying or that, verbatim, to the one required message parameter missing (\"email Ann and say see you at noon\"), or an optional one for \"that\" and a subject's clause after a sending verb (\"post in the team chat that I've landed\")", guess: true,
		apply: func(f *filler, _ *property) { f.applySaid() }},
	// After said: what a message says is the message's, even when it reads
	// as a list ("saying the deploy is done, thanks").
	{name: "lists", doc: "a list written as such (\"eggs, milk and bread\") to the one array-of-strings parameter missing, without its own noun (\"with labels bug and urgent\"), the list after that noun first (one item of one or two words after it, \"with label bug\", a list of one), ended by a cue of exclusion or inclusion; for items, one noun phrase after add/remove/put/buy as a one-item list (\"add rye bread to the list\")", guess: true,
		apply: func(f *filler, _ *property) { f.applyLists() }},
	{name: "purpose_clause", doc: "what the tool's verb, or a verb that prompts someone, asks done, after its object and \"to\" (\"remind me to call Ann\", \"nudge me to call Ann\"), to the one required text parameter missing", guess: true,
		apply: func(f *filler, free *property) { f.applyPurposeClause(free) }},
	{name: "booked", doc: "the thing the request's verb books or schedules (\"book a 90 minute design review\", \"put lunch with Sam on my calendar\"), with the person it is with, to the one required title parameter missing", guess: true,
		apply: func(f *filler, _ *property) { f.applyBooked() }},
	{name: "names", doc: "capitalised names and codes left over to missing required text parameters", guess: true,
		apply: (*filler).applyNames},
	{name: "object", doc: "the object of the request (\"the rate for ethanol\"; after \"in\" when it follows the tool's own word, \"anomalies in signups\") to the one text parameter missing; a possessive owner whole when it owns the tool's thing (\"into the hiking crew's group\")", guess: true,
		apply: (*filler).applyObject},
	{name: "verb_object", doc: "the words right after the tool's own verb, past its particle (\"translate good morning to Spanish\", \"jot down buy stamps\"; \"roll back X\" for rollback) to the one required text parameter missing; with none required missing, the object of play/put on/search for to the optional query (\"play some jazz\" → jazz); a capitalised name put/played/opened/watched to the parameter for a work's title (\"watch The Crown\")", guess: true,
		apply: (*filler).applyVerbObject},
	{name: "freetext", doc: "the rest of the intent, past the request's frame (its verb, the tool's words, the question) and the cue that introduces the value (in, of, for, about, on, with, a colon), verbatim (\"count the words in a piece of text about words\"), to the free-text parameter; the thing of \"is there a X open nearby?\" alone", guess: true,
		apply: (*filler).applyFreetext},
}

// ruleNamed finds a rule of the table by name.
func ruleNamed(name string) (rule, bool) {
	for _, r := range rules {
		if r.name == name {
			return r, true
		}
	}
	return rule{}, false
}
