// Package resolve is the pure core of the resolve stage: it turns a routed
// intent and the manifest of its chosen tool into a ToolCall whose arguments
// meet the tool's JSON Schema.
//
// This resolver is deterministic. It reads arguments from the intent text
// by these rules, in order (the named table in rules.go, each rule's tests
// under its name in rules_test.go); a parameter set by an earlier rule is
// not overwritten by a later one:
//
//  1. key/value pairs: key=value, key="quoted value", key='quoted', key: value
//     (the value runs to the next comma, semicolon or key). Keys match
//     property names case-insensitively and ignoring -, _, space and
//     camelCase differences (max-results, maxResults, "max results" all
//     match max_results), or the last word of exactly one name ("URL:" for
//     photo_url). A repeated key replaces the earlier value, except for
//     arrays, whose values accumulate. A quoted value after a key that names
//     no property stays a quoted value for the rules below (`the sentence:
//     "…"`). A double quote never closed quotes the rest of the text.
//     Before them, a SQL statement (SELECT … FROM, INSERT INTO, UPDATE …
//     SET, DELETE FROM, WITH … AS; in capitals anywhere, in lower case
//     quoted, after a colon or opening the request, and then written as
//     code) goes whole, to its closing quote or backtick, else to where
//     prose resumes outside its literals (", then …", ", and then …",
//     "; then …", "and email it …": "and", a verb of prose and its
//     object, where a column is followed by an operator) or the end of
//     the request, to the parameter that takes SQL (named sql or
//     described as SQL, not also as a question in plain words); no other
//     rule reads its words. A guessed value for that parameter must be a
//     statement: "a query joining users and plans" describes one and
//     fills nothing (statements.go).
//  2. moments and dates. A recurrence in words ("every Monday at 9am",
//     "weekdays at 8:30", "daily at noon", "every hour") fills a property
//     that takes a cron expression as one ("0 9 * * 1"); a day without its
//     hour fills nothing. The same reading ("on weekdays", "every
//     Saturday", "on Mondays and Wednesdays", "daily") fills a plain
//     string property for the days a thing repeats on (named days,
//     repeat, recurrence … or described as what it repeats or recurs on)
//     as day words ("weekdays", "Saturday", "Monday, Wednesday"), with no
//     hour needed; one day ("on Saturday") is no recurrence. For a tool with a date-time property (format date-time,
//     described as a date and time or a datetime whatever its name, or
//     named start, end, due … and described as RFC 3339 or ISO 8601): a
//     day and a time of day in either order ("tomorrow at 3pm", "on Monday
//     at 10:30am", "at noon on December 3", "2026-12-01 at 14:00", "next
//     Tuesday at 9": a bare hour after "at" is 13:00–18:00 from 1 to 6,
//     unless the part of the day is said around it: "at 8 in the
//     evening", "tonight at 7", "every evening at 8", "tomorrow morning at
//     6", "at 12 at night" (the next day's 00:00), "wake me at 6"; an am
//     or pm written wins, and an hour the part lacks, "at 2 in the
//     evening", is not read; times in words: "quarter to six", "half past
//     9", "ten past 7", "at half 9" (9:30); on a tool named for alarms
//     or waking only, "for" and a bare hour is the time too, as written
//     unless the part of the day is said ("an alarm for 8", "alarm for 7
//     tomorrow", "for 10 tonight"), never before a unit or a noun ("for 8
//     minutes"), and elsewhere never ("a table for 8"); the same reading
//     serves cron expressions and HH:MM times),
//     a time alone (its next occurrence, or the day written before it:
//     "… ends at 5"), or a span from now ("in 2 hours") become RFC 3339 in
//     the worker's time zone, which the call's arguments show; the
//     property named just before the moment takes it, else the first
//     still missing. A property that bounds a search (named since, after,
//     before or until) looks back: "since yesterday" is its midnight,
//     "since Monday" the last one. A day named from today ("tomorrow",
//     "next Friday", "yesterday") fills a date property. For a forecast's
//     count of days ahead (an integer named days, of a tool whose text
//     looks ahead), the day asked about ("on Thursday", "December 3",
//     "this weekend", "next week") sets the count that reaches it when the
//     count given or the default does not, and is reported past the
//     maximum (horizons.go). A day alone for a property that needs a time
//     of day is not run at midnight: the answer says what it read and
//     asks for the time. Written by hand: the date libraries tried
//     misread such requests (moments.go). A time of day alone fills a
//     time property as HH:MM ("an alarm for 7am" → 07:00); written with
//     its day, for a time property that is no clock time ("Pickup time",
//     when: not formatted or described as a clock time, HH:MM, "e.g.
//     06:30") and no date property to take the day, it is the whole
//     moment ("at 6am tomorrow" → 2026-11-28T06:00:00Z), and a length
//     of time a string property named duration, length or timeout ("10
//     minutes", "a 45-minute …", or "10m" when its description writes lengths so;
//     a length written compact, "for 45m", as written;
//     a half read with its length: "an hour and a half", "two and a half
//     hours", "half an hour", "1.5 hours" → 1h30m, 2h30m, 30m, 1h30m);
//     such a length ("over 30 years", "a 2-year term") also fills the one
//     missing numeric property for a length (term, duration, timeout …)
//     whose unit, after "in" in its description or ending its name ("Term
//     in months", duration_minutes), is of the same kind, converted to it
//     (360); seconds to weeks and months to years are two kinds that do
//     not convert ("90 days" fills no months, nor is it a loose 90 of
//     them). Dates and times written as
//     such: "November 25, 2013", "25 Nov 2013", 2013-11-25,
//     11/25/2013 become 2013-11-25 (or the format the property's
//     description asks for, e.g. DD/MM/YYYY); 09:16 stays as written. A date right
//     after a property's name goes to it ("a due date of …"); the others
//     fill the date properties (named date, day, deadline …, or described
//     as a date) in the order written ("from … to …" → start, end); a time
//     fills a time property, else a date one. A period ("over the last
//     90 days", "last week", "this month", "last quarter", "March 2024",
//     "Q3", "in 2023", "year to date") fills a tool's pair of date
//     properties named for a start and an end (start/end, from_date,
//     since, until …) with its first and last days, calendar periods
//     from Monday to Sunday and from the first of the month; after
//     since/from/starting only the start, after until/through only the
//     end; a month or a quarter without its year is the latest begun; a
//     month or a year alone needs a word before it ("in March", "for
//     2023"), so that "may" and a bare number are not read (ranges.go).
//  3. identifiers: "with the ID X", "engine ID 'X'", "ID number 82",
//     "identified by 'X'" fill a property named …_id; the noun before "ID"
//     says which when there are several. A thing's number written as
//     such, "#123", or after the initials of the tool's thing ("PR 310"
//     on a pull request tool), fills the one missing parameter for the
//     number a thing is known by (pull_number, job_id: an integer or text
//     named …number or …id); with two such parameters, none (numbered.go).
//     The currencies of a conversion
//     ("8,450 CHF to euros", "5,000 yen in British pounds", "from
//     sterling into dollars") fill a tool's source and target currency
//     parameters (described as ISO 4217 or a currency) as codes: the one
//     after to/in/into or "how many" is the target, the one after from or
//     after its amount the source; a code counts in capitals and when ISO
//     4217 knows it (golang.org/x/text/currency), a name only when it says
//     one currency (euros, yen, US dollars, Swiss francs; not francs or
//     pesos alone), € and £, and before an amount only $ (the US dollar,
//     as "dollars"), C$, A$ and the like, and ¥; with three, or two whose
//     roles are unsaid, none is placed. A tool's one currency parameter
//     takes the code of the one currency named: after in/into/to ("an
//     invoice in euros" → EUR), as a code or a sign, or a name after an
//     amount ("300 Canadian dollars", never "20 pounds of"); named for the
//     target, only after in/into/to, for the source after from or an
//     amount; two different currencies fill it with none (currencies.go).
//     The units of measurement of a conversion ("convert 10 miles to
//     kilometers", "how many grams is 3 cups of flour", "60 mph in
//     kilometres per hour") fill a tool's source and target unit
//     parameters (named or described for a unit, and showing units in
//     the description or paired from/to) the same way: after the amount
//     or from the source, after to/into/in/as or "how many" the target;
//     a tool's one unit parameter takes the one unit said with an amount
//     or after to/in ("68 degrees fahrenheit"). A unit is read by its
//     name, plural or symbol (github.com/bcicen/go-units: lengths,
//     masses, volumes, temperatures; cooking measures and speeds by
//     hand), a symbol of one letter only where an amount, "degrees" or
//     to/in says it is one ("400 F", "to C"), and written as the
//     parameter shows units: its enum's member (["C","F"] → F; a system
//     of units by synonym, "fahrenheit" → imperial), its description's
//     symbols ("e.g. mi, km" → mi), else the unit's name (units.go).
//     An amount written against its unit ("10km", "68°F", "250ml") is
//     read as the two words it stands for, when the unit is a symbol or
//     name of two letters or more, or follows a degree sign
//     (gluedUnitCut, words.go: "5m", "4K", "2nd", "9pm" stay whole).
//  4. property cues: a property's name used as a verb on it or them
//     ("label it bug", "tag them as urgent") takes the word after it;
//     a boolean property's name written as words of the request, in any
//     order and inflection, two other words among them at most, or joined
//     by a hyphen ("notify the customer", "restock the items", "insured",
//     "in stock only", "opted in to marketing", "dry run", "dry-run",
//     "delete the branch"; a last "only" unsaid, "in stock" for
//     inStockOnly; notify said as tell, inform, alert or "let … know",
//     flagVerbs) sets it, false after a negation ("don't notify
//     the customer", "no dry run", "without versioning", "disable …") or
//     before disabled/off ("with versioning disabled"); nothing in a
//     question about how things are ("is the door locked"), never the
//     request's verb alone ("update the record"), nor a name without a
//     word of four letters (on, off, "all": states reads the particles;
//     flags.go); a participle of a one-word name before
//     values ("customers tagged wholesale", "tagged vip and wholesale")
//     takes them, a list for an array, for a string one word that ends
//     its clause (marked.go); a
//     property's name followed by a value ("limit 50",
//     "with limit of 50", "units metric"); for numbers also the value first
//     ("20 lines"), or only the first word of a longer name ("duration 45"
//     for duration_minutes).  A number a comparison makes a bound ("under
//     $80", "at least 4 stars", "4 stars or more", "between 50 and 120
//     dollars", "ten at most") fills the missing numeric property named
//     for that bound (min…, minimum…, max…, maximum…): the one there is,
//     else the one whose other words the request writes, else for money
//     the one named price, amount, total …; "between" fills the two, the
//     lower named as the upper (minPrice of maxPrice); a number of days,
//     weeks … is no bound; the comparison and the number's noun go with
//     it (bounds.go). For string properties the value must look like
//     one: a path, URL, address or number, or a run of capitalised words
//     ("location New York"); a title's run goes on to the end of its
//     clause when a lower-case content word or a determiner follows it
//     ("with the title Fix typos in README"; not an e-mail's subject,
//     whose message often follows it uncued). A quoted value preceded by
//     a property's name goes to that property. Before any name, the noun a text property's
//     description names it by, the word before "name" or "id" ("Tab
//     name"), cues it: "the sheet Retention, tab Scores" → sheet=Scores.
//  5. scoped lists: a cue of exclusion (excluding, except, except for,
//     except in, without, ignoring, skipping, minus, but not, other than)
//     says the list after it is for the one missing list of strings named
//     for what to leave out (exclude…, ignore…, skip…), and "including" for
//     one named include…; the cue is no item ("excluding node_modules and
//     .git" → node_modules, .git), the noun of an item's kind goes ("*.log
//     files" → *.log), and a plain word with one describes, names nothing
//     ("hidden files": none placed). Such a cue also ends any other list
//     (scoped.go). A git ref after its cue fills the ref parameter of
//     its role (named or described for a branch, ref, tag or commit):
//     after into/onto/against where a change goes (base, "Branch to merge
//     into"), after from/off where it comes from (head, "… to branch
//     from", "Branch with the changes"), else the one ref; "branch X",
//     "a branch called X" and "tag X" the parameter named for the noun,
//     else the one that is not where the change goes; "on main" (a
//     default branch's name only: "on acme/web" is a repository) the one
//     plain ref. A ref is written as one ("feature/login", "fix-typos",
//     "v1.4.2", main; "from scratch" is none). It runs before shapes,
//     since a branch looks like a repository (refs.go). Then shapes: a path (/x, ./x, ../x, ~/x, or relative: docs/notes.txt,
//     src/, notes.txt) fills a missing property named like path/file/dir
//     (a source before a destination, "move a.txt to b/"), a URL one
//     named like url/link, an e-mail address one named like
//     email/to/recipient, a file-name pattern (*.txt, report-??.csv) one
//     named like pattern/glob (not one for what to exclude), a phone
//     number (555-0142, 1-800-555-0134, +447700900461; no date or range)
//     one named like phone/mobile or described as one ("Phone number or
//     contact name"); a path or file name also one named for what it
//     holds (attachment, photo, image) or described as a path or as
//     attached ("Path of a photo or file to attach": "send the photo
//     vacation.jpg" → attachment, not the message); so does a
//     file name after named, called or matching ("files named notes.txt"):
//     a name is a pattern that matches itself; and a file extension
//     written with its dot (".txt files") as the pattern "*.txt". A
//     folder of the user's home named by its role ("my downloads", "the
//     documents folder", "my home directory") fills the first path
//     property missing as a shell writes it (~/Downloads, ~), which the
//     executor expands (homedirs.go). A bare
//     identifier, eight digits or more, or letters and digits with four
//     digits or more ("9400111899223344556677", "1Z999AA1012"; no year,
//     count or measure), fills the one missing text property named for
//     one (tracking_number, order_id, code), else the one described as
//     one; a code whose letters name what it is fills the one missing
//     text property a word of whose name they are, or open with three or
//     more ("SKU-300" → sku, "INV2041" → invoice_ref; identifiers.go).
//     A number sign before digits ("order #100482") is no character of
//     an id or a number: such a parameter gets the digits; others keep it
//     ("#4411" for a channel). An international phone number written in
//     groups ("+34 612 345 678") fills the one missing phone property,
//     joined (+34612345678; phones.go), before any cue reads "+34"; a
//     person's name of two capitalised words, a whole name, fills the
//     missing given- and family-name properties (firstName and lastName,
//     given_name and surname), a word each (fullnames.go).
//  6. values next to the noun a property is named for (its last word, or
//     the word before a suffix such as _name, _type, _id): after it ("the
//     game 'Tetris'", "the player named Cristiano Ronaldo", "the task of
//     cleaning") or before it ("the 'SHAP' method", "the Sales team", "the
//     cardio workout", "the churn_scores table", "PayPal as your payment
//     method"), a plain lower-case name right after the noun when the noun
//     opens its phrase (after a preposition, a determiner or the request's
//     first word) and the name ends it ("in namespace payments", "on
//     schedule sre-primary"; never a word of the parameter's own name,
//     "the dance style", a participle, "the door locked", nor a framing
//     word), or after the verb
//     of its first word ("targeting young professionals" → target_audience).
//     A name written with a noun whose property asks for no name is the
//     name of what the noun is part of, when one other missing property
//     asks for a name of that kind (the tool writes "a podcast episode",
//     or the noun's description "episode of the show"): "the Radiolab
//     episode", "the next episode of The Daily" → show, and the word
//     before, when the noun's description lists it ("latest", "next"),
//     to the noun's property. A name after a/an, via, using or through
//     ("book an Uber", "a ride via Lyft") fills the one missing text
//     property whose description writes it ("uber, lyft or taxi"), else
//     the one named or described for a service, provider, app, brand or
//     company (providers.go). A capitalised name after "for" ("overdue
//     invoices for Acme Corp") fills the one missing text property, even
//     optional, named for whom things belong to (customer, client, user …)
//     and described as a name or id, unless a place property is missing
//     too ("for Paris" may be a place).
//  7. languages ("in Portuguese", "into german"; from/to for source and
//     target), as the ISO 639-1 code where the property asks for a code
//     and not also a name ("Result language (ISO 639-1)", "two-letter
//     language code": "in Portuguese" → pt; CLDR's English names, from
//     golang.org/x/text/language/display; a language with no code, as
//     written; languagecodes.go), a business after "from" or "at" ("pad
//     thai from Thai Garden", "transactions at Blue Bottle") for the one
//     property named for a seller (restaurant, store, merchant …) or
//     described by one ("Merchant name"), where in a system a thing
//     lives after in/on for the one missing scope property (namespace,
//     region, cluster, environment … without an enum): a code ("in
//     us-east-1"), a plain word ending its clause ("pods in payments"),
//     or any word before the property's noun ("in the default namespace";
//     scopes.go), places
//     after in/at/near/from (then of/for; not a part of the day, a
//     weekday or a month: "in the evening" says when) for properties named location,
//     city, country, region, room … (an address "Los Angeles, California, USA"
//     goes finest part first to city, state, country; with one property
//     for it, a city with its state or country after a comma that package
//     places knows whole, "Austin, Texas", "Lyon, France", is one place,
//     and "Paris, then Rome" two; a kind of place and its name, "in room
//     Orion", goes whole to a property named for the kind or described
//     with it, "Room or address"), and a plain noun
//     ending the clause ("the water quality of the lake"). A room written
//     right before the tool's own noun (a word of its name or of what it
//     says of itself: "the hallway lights", "the den lamp") fills a room,
//     zone or area property when it is a room word, a compound room
//     ("guest room") or a value the property's description lists. A "when I get
//     to / arrive at / reach / leave / am at <place>" clause ("as soon as
//     I get home") fills the one place property described as what sets a
//     thing off (arrival, leaving, trigger); an arrival never fills one
//     described for leaving only, nor a departure one for arrival.
//     A time zone parameter (named timezone, tz, zone, or described as a
//     time zone) takes a zone name ("Europe/Paris", "utc") or a place the
//     time zone database names a zone for, any of its cities ("Tokyo",
//     "new york", "São Paulo") or a country it gives a zone ("Japan"), or
//     one of the world's cities and countries whose name leaves no doubt
//     ("San Francisco", "Germany"; "Portland, Maine" but not
//     "Springfield" alone), from package places (workers/internal/places).
//     Where a trip goes, after "to", and where it starts, after "from",
//     fills a destination or origin property (dropoff, destination;
//     pickup, origin): a phrase with a determiner or possessive ("a ride
//     to the airport from my office"), ending before a word that says when
//     ("right now", "tonight"); a name, with its house number or what a
//     possessive name owns ("bike to Golden Gate Park", "to Grandma's
//     house"), unless a guard makes it a service; a place English names
//     bare ("from work", "to school"); and "home" with no "to" ("get me an
//     Uber home") where the trip goes.
//  8. states: on or off as a switching verb's particle ("turn off the
//     lights", "switch the lamp on", "lights off in the kitchen", "TV
//     off"), and lock, unlock, open, close, start, stop … as the request's
//     verb ("lock the back door"), fill the one missing parameter whose
//     enum holds the word (or another form of it: "closed" for "close"),
//     or the one boolean whose description writes the state with true
//     or false ("true to switch on, false to switch off") or that is
//     named for it ("on", "locked", "power"); a particle no parameter
//     takes is reported, never placed as a name or a room. "open" said
//     of the places asked for, not as the verb ("a pharmacy open now"),
//     sets the one missing boolean named for it (open_now) true; "not
//     open" is left. The key a listing is ordered by, a superlative
//     with "first" ("biggest first", "the newest files first"), "by" and
//     the key ("by size", "sorted by date") or "alphabetically", fills the
//     one missing enum property named for sorting (sortBy, order_by) as
//     its one member of that kind (size; mtime, lastModified, created_at
//     for a date; name); keys of two kinds, or a kind two members share,
//     fill nothing, and the default stays (sorts.go). Then enum
//     words: an enum member of several words joined (next_day,
//     out_of_stock, fixed-amount) written as its words ("DHL next day",
//     "because it's out of stock") fills the one missing property whose
//     enum holds it, not after a negation, nor when two members of the
//     property, or of two properties, are written (enumphrases.go); then a word equal to one enum value (ignoring case,
//     separators, plural; a verb member's -ing form, "driving
//     directions" → drive) of exactly one missing property fills it
//     ("checksum /etc/hosts with md5"; two values written as one
//     compound noun, "email address", are the first; the article "a" or
//     "an" in lower case is no member in capitals: "a CNAME record" is no
//     A record), unless it is asked for either way
//     ("paid or not", "paid or unpaid": no filter, and nothing reported;
//     only a member or its contrary is: "to be or not to be" is prose)
//     or the request asks for every value of the property ("any status",
//     "all statuses", "regardless of status"). A request that opens as a
//     question about how things are (is, are, does, what, what's, which,
//     how many …; do and have only with a question mark; never can,
//     could, would or will, polite commands) fills the one missing enum
//     property with exactly one value that reads (status, read, get,
//     list, show, check …): "is the back door locked?" → status
//     (questions.go); a word in lower case that
//     the descriptions list as a value ("e.g. revenue, dau, signups") of
//     one missing text property and of no other fills it: its own
//     description's list, or the tool's where the list follows the
//     property's noun ("a business metric or KPI (e.g. …)" → metric); not
//     for either end of a pair (from_unit/to_unit: a list says the kind,
//     not the end) nor with two listed words written (listed.go); currency codes, sex, direction,
//     level (beginner … expert) and frequency (daily … yearly) words fill
//     the one property named for them, and a relative period ("over the
//     last month") a property named period or timeframe.
//     An adverb of frequency ("monthly prices", "weekly cohorts"; not
//     "monthly active users", a metric) fills the one enum property named for a grain or interval, as the member
//     that codes it ("1mo", "month", "M", "P1M"; "m" may be minutes and
//     codes no month) (frequencies.go). The percentiles asked for ("the
//     90th and 99th percentiles", "p99", "median" for 50) fill the one
//     numeric property or list of numbers named or described for
//     percentiles; a snake_case identifier after "of" ("the mean of
//     latency_ms") the one text property for a column, and a lower-case
//     word after in or from that ends its clause, or a snake_case one
//     ("… in requests"; not an idiom's: "in total", "from scratch"), the
//     one for a table (tables.go). A chart's missing x and y axis
//     properties (named x, xAxis … or described as for the x axis) take
//     the plain words around by/against/vs/versus/per: the measure before
//     it is y, what it is plotted along after it is x ("a bar chart of
//     revenue by region", "plot price against area"; a unit of time is an
//     axis, "per month", a deadline is none, "by Friday"; axes.go). The plain
//     lower-case words after "by" ("signups by acquisition channel", "by
//     region and device", "broken down by plan") fill the one property
//     for the dimensions to split by (named group by, dimensions,
//     breakdown, segment … or described as what to group or break down
//     by), as a list when it takes one, one dimension when it takes text;
//     a time grain ("by week") fills a grain property whose enum has it
//     instead; "sorted/ordered/ranked by", and a name, number or time
//     after "by", are no breakdown (breakdowns.go).
//  9. numbers in prose (by their noun also written as words, "the last
//     three lines", "forty-one years old"): "55 years old" is an age, "2 employees" an
//     employee_count; a number right before or after a noun that the
//     description of one missing numeric property writes and no other
//     property's name or description does ("a 300000 loan" for "Loan
//     amount"; not after "per": "Price per night"; not one of a choice,
//     "4 or 5"; not the request's verb, "scale 2") is that property's; the
//     one percentage written ("at 6.5%", "20 percent") fills the one
//     missing numeric property described in percent, as written, or as a
//     rate in fractions of one ("e.g. 0.05"), divided by 100, and a rate
//     with no scale none; the one missing enum property with a member for
//     percentages then takes it ("a 15% off coupon" → discountType
//     percent; percents.go); a number in the phrase a description writes with N
//     ("returns only the first N lines" ← "the first 5 lines") is that
//     parameter's, and "the first line", "the top result" with no number
//     written are one of what a count parameter counts; one missing required number and one unused number
//     belong together, and so do a tool's only numeric parameter, even
//     optional, and the request's only number ("get resource links 4").
//     That number may be a word of two or more ("ten at most"; "one" is
//     as often a pronoun), and is none after up, down or by ("bump the
//     heating up two degrees": a change, no target) unless the parameter
//     is named or described for a change (step, delta, adjust).
//     A number made one word with its noun ("a 5-day forecast", "a
//     10-minute walk") fills the one missing numeric property named for
//     the noun (days, minutes); a noun none is named for ("a 5-star
//     hotel") fills nothing. The words that frame a count placed so, a
//     bound before it (max, maximum, top, up to, at most) and the noun it
//     counts after it (results, items, rows … or one the property counts,
//     "Maximum number of places"), are used with it: no free text takes
//     them ("max 30 results"); a noun it does not count ("15 dentists")
//     stays.
//  10. first, the particle of a phrasal verb opening the request ("echo
//     back", "read out", "print out", "look up", "write down", "send
//     over") is no word of a value, nor the verb when it is not the
//     tool's own: "echo back good morning" → good morning; a particle a
//     rule above placed ("turn up the volume" → up) is left (particles.go).
//     Bare quoted values: any other goes to the first missing required
//     string property, then to the free-text property. Numbers written in
//     order fill required numbers that differ only by order (described
//     "First number", "Second number", or named a/b, x/y, n1/n2) when
//     there are exactly as many ("get the sum of 2 and 3" → a=2, b=3).
//     What the request's thing is to hold, after it and containing,
//     contains, that/which says or reads, or with (the) text, content or
//     words ("create /tmp/todo.txt containing buy milk"), verbatim to the
//     end, fills the one missing property named for content (content,
//     text, body, data), required or not; never right after the verb,
//     nor when a word to the end is another value (contents.go). A
//     required text property's name used as a noun after a determiner
//     takes the plain words after it to the end of the clause ("echo the
//     message hello world" → message, "reverse the word stressed" → word;
//     "list the directory src" → path, for which file, directory and
//     folder are names too): one path word, up to three content words, or
//     any words for the free-text property. A list written as such, two
//     or more short items parted by commas, "and" or "or" ("add eggs, milk
//     and bread to the shopping list"), fills the one array-of-strings
//     property missing, without the property's own noun before its items
//     ("with labels bug and urgent" → bug, urgent), the list after that
//     noun first ("titled Patch CVE, reviewers alice and bob" → alice,
//     bob; its noun singular with one item of one or two words, "with
//     label bug" → [bug], a list of one); for a property of items (items, products …) one
//     noun phrase after add, remove, put or buy is a one-item list ("add
//     rye bread to the list" → ["rye bread"]), never a pronoun, "more" or
//     "everything". What a thing is called, after
//     called, titled, entitled, named or labelled, to the end of the
//     clause, or to "with"/"and" before another missing property's noun
//     ("titled Login broken with label bug" → Login broken)
//     ("an issue called Login fails on Safari, label it bug"; the
//     word right after the cue is kept however common: "a timer called
//     run"; a name written as one slug, "a bucket named acme-logs-prod in
//     eu-central-1", is that word alone),
//     fills the one required title property missing, else the one
//     property missing that names the tool's own thing (label, name, tag
//     … or described so: "Name of the timer"; a description's words, not
//     its letters, say a pattern: "Globally unique name" is a name),
//     optional or not; for such a
//     property "for the X" names the thing too ("a 20 minute timer for the
//     laundry" → label), when X is one to three plain words, no number,
//     length or time ("for 2 people", "for the next hour" name nothing); what a colon introduces, verbatim ("post to
//     #ops: deploy done", "count the words: the quick brown fox"), the one
//     required text property missing or the one named for content, even
//     optional ("request changes on #77: add tests" → body), but
//     after a verb that sends a message and who gets it ("Telegram the
//     climbing club: meet at 8") the one message property missing (text,
//     body …), with the one to four words before the colon, when no
//     pronoun or verb, for the one other required text property (the
//     chat); a word before the colon another rule placed ("file a bug on
//     acme/api: the page does not refresh" → repo) leaves the colon
//     introducing the rest all the same; a title or a colon's text that runs up to
//     a value another rule placed ends before the words introducing it,
//     a preposition and words of a parameter's name ("titled Wrong size
//     delivered for order ORD-5512" → "Wrong size delivered"; "ticket:
//     Checkout fails for customer ann@example.com"; leadins.go); the thing the request's verb
//     books or schedules (book, schedule, arrange, plan, put, add, create,
//     set up: "book a 90 minute design review next Thursday", past the
//     words another rule read there), with the person it is with ("put
//     lunch with Sam on my calendar" → "lunch with Sam"), fills the one
//     required title property missing, before the names rule would take
//     a capitalised word for it; never only the tool's own words ("schedule
//     a meeting") or a reference (booked.go); in "how do you say X in
//     LANGUAGE", "say X in LANGUAGE", with the language placed, X fills the
//     one required text property missing, never a reference ("say it in
//     French", "this sentence": sayin.go); what a message says, after say, saying or that ("email Ann
//     and say see you at noon"), the one required message property
//     missing, or an optional one for "that" and a subject's clause after
//     a sending verb ("post in the team chat that I've landed"); a
//     request put as a question ("could you …?") keeps its question mark
//     out of the message. What a
//     word of the tool's asks
//     done, the clause after it, its object and "to" ("remind me to call
//     Ann", "a reminder for Friday at 5 to submit the report"), fills the
//     one required text property missing. Then names left over
//     (capitalised runs not opening a sentence) fill the missing required
//     text properties in order, and one code left (BA456, 10.0.0.7) the one
//     text property still missing; failing that, that property takes the
//     object of the request, the first plain noun phrase after for, of,
//     about, on, using …, or "in" right after the tool's own word
//     ("anomalies in signups" → metric), that is not the tool's own words
//     ("the mass transfer rate for ethanol" → substance; a possessive owner whole
//     when what it owns is the tool's thing: "into the hiking crew's
//     Signal group" → "hiking crew"), or the plain words right
//     after the request's verb when it is the tool's own, past its
//     particle ("translate good morning to Spanish" → text; "jot down buy
//     stamps" → buy stamps), the tool's word written as two ("roll back
//     payments-gateway" for rollback) and the tool's words after it
//     ("rollout restart billing-worker") included, never a reference
//     ("this paragraph") nor for a length of time;
//     with nothing required missing, the object of play, put on, search
//     for, look up … fills the one optional query parameter (query,
//     search, keywords), past "some"/"a", possessives kept ("play some
//     jazz" → jazz), never a reference or only the tool's own words.
//     First, a capitalised name that is the object of put, play, open,
//     watch, show, stream … ("put Dune on the big screen", "watch The
//     Crown") fills the one missing parameter for a work's title (named
//     movie, film, show, series, or title described as a movie, show,
//     series, streaming app …), not with a channel parameter missing when
//     it holds a number or a word in capitals ("Channel 5", "ESPN"), nor a
//     word another parameter lists ("HDMI").
//  11. free text: when the only required parameter is a missing string that
//     is marked "x-toolyard-freetext": true or named query, q, text, prompt or
//     message, it gets the intent text minus the parts used above, past
//     the request's frame: the words opening it that say what to do (its
//     verb, the tool's own words, the common words of requests, question
//     words, politeness) and the cue that ends them and introduces the value
//     (in, of, for, about, on, with, a colon, "that" after the verb).
//     What follows is taken verbatim as one span, its articles and any
//     word of the tool's own kept ("count the words in a piece of text
//     about words" → "a piece of text about words"; "how many words are
//     in this is a test" → "this is a test"; "run the google maps
//     scraper for tech companies, limit 50" → "tech companies"). With no
//     cue the value starts after the frame's last word that no value
//     opens with, past a lone article ("find a lasagna recipe") but not
//     past a clause's opening ("count words this is a test" keeps "this is
//     a"): where frame and value cannot be told apart, words are kept.
//     At the end, framing words before a value another rule placed
//     ("pizza in" of "pizza in Naples"), "please", a place the tool is
//     used in written with its words ("in the CRM", "on google maps") and,
//     with no cue, the tool's own words ("lasagna recipe") are the
//     frame's; the frame and the tool's words alone ("count the words in
//     the text"), or a reference ("of this paragraph"), give no value
//     (freetext.go). An inner intent's result
//     substituted into the text (Intent.Nested) is one value, whole: no
//     frame reaches into it, none of its words closes it, and its colon
//     or "a text" is not read as the request's. A tool without required parameters may mark one
//     optional string parameter as free text the same way. When the rest
//     breaks the parameter's own constraints (a host name's pattern), the
//     words after its last of, for, about … are tried instead ("the ip of
//     localhost" → localhost). An existential question ("is there a
//     laundromat open around here?") gives the thing it asks for, without
//     its article ("laundromat"), when the rest only says where the asker
//     is (open, nearby, around here, near me).
//  12. a required value given blank ("" or []) counts as not given; then
//     defaults from the schema.
//
// Required parameters the intent text lacks are then read from its
// context, nearest first: the text just before the marker, just after it,
// and the last user message, by the rules that read a value written for a
// parameter (1–9), never by those that place leftovers (10–11).
//
// The values the intent text states that no rule placed — quoted strings,
// key=value pairs for no parameter, numbers (with a unit: "24h"), paths, URLs, addresses, host
// names, capitalised names not opening a sentence, the word after "named"
// or "called", a word narrowing what the tool finds ("the json files") when
// a parameter would take it, and any plain content word left over that
// does not frame the request (no common word, no word of the request's
// verb or of the tool's own name, description or examples, no parameter's
// name, no participle or adjective of degree, not the kind of a value
// placed beside it: "the song 'Imagine'") — are the call's Unmapped values, each with the parameter
// that would take it, if any (unmapped.go; for a name, a place's
// parameter first, then a work's title). The stage answers a call with
// such a parameter missing_arguments instead of running it.
//
// A word meant for an enum parameter that is none of its members nor a
// synonym of one is reported for that parameter, so that the call is not
// run with its default: a code of the members' shape ("sha3", "crc32",
// "blake2", "sha-3" for md5 … sha512), the letters a code member opens
// with ("sha"), or a word standing where the value would, beside a word
// of the parameter's name or short description ("whirlpool hash" for
// "Hash algorithm", "tiff format"), and for members that are all codes
// after using or via or before the tool's own noun ("using whirlpool",
// "whirlpool checksum"); common words, the tool's own words and words
// that only describe are none ("with care", "a quick checksum"). So is a
// number written beside what a numeric parameter counts, a word of its
// name or a noun it counts, that the parameter cannot take ("the first
// 2.5 lines", "2.5 levels deep": a fraction for a whole number;
// misfits.go). The answer says what the parameter takes: "\"sha3\" was
// not used: algorithm takes one of md5, sha1, sha256, sha512", "\"2.5\"
// was not used: lines takes a whole number". A second place for a tool's
// one place or time zone parameter, which holds the first ("what time is
// it in Berlin and in Tokyo", "weather in Oslo and Bergen"), is that
// parameter's, with the tool to ask again, as a second path is ("sha256
// of a.iso and b.iso"): the call runs for the first, and the second is
// never offered to another parameter that would take any text (format);
// a place given as key=value for a time zone parameter is its zone
// ("timezone=Tokyo" → Asia/Tokyo), so the call suggested for it runs in
// the right one.
//
// Guards keep the rules that guess from a value the person did not mean
// (guards.go); the value is then left missing, and asked for, rather than
// guessed: a name ends before a subject pronoun, where what a message
// says starts ("text Ann I'm late" → to Ann, and after a message verb the
// said rule takes "I'm late" as the message); a pronoun alone ("I", "it")
// is no value of a text parameter; a message is not the words before its
// noun ("a plain text") nor, when who gets it is missing, the word after
// its verb ("text 555-0199 …"); a clause opening with a verb is no short
// value (a door, a camera) however a colon introduces it; a name another
// parameter lists as a value ("uber, lyft or taxi"), another offered
// tool's name, a name after "a"/"an" ("get me an Uber") or after "from"
// is no place where something goes (drop-off, destination, delivery
// address); a name after "from" fills a parameter named for the seller
// (restaurant, store, shop …); a compound noun ("living room", "back
// yard") is taken whole unless the description gives its first word as a
// value ("Which door, e.g. front, back"); the purpose clause, after the
// tool's word or a verb that prompts someone ("nudge me to …", "ping us
// to …"), fills the
// free-text parameter too when it ends the request ("remind me to call
// Ann" → "call Ann", not "Ann"); a list is no clause: none right after a
// subject pronoun ("I'm tired and hungry"), in a denied clause ("we don't
// want X or Y"), after "no", or with an item holding a pronoun, a
// negation or a verb before its last word; a street address keeps the
// house number right before its street's name ("at 22 Elm Street"),
// placed or reported. After a verb that carries a thing somewhere
// (export, push, copy, send, load …), "<the thing's name> to X" says where
// it goes, not what the thing is ("export the orders table to CSV" →
// table orders), unless the parameter is where it goes; a product or
// maker before a thing's noun ("a Google spreadsheet", "Google Sheets",
// "the Excel sheet") names none; and a thing asked for as "a/a new X"
// ending its phrase ("load it as a new table", "into a new Google
// spreadsheet so …") is named by no other word of the request. A word
// that opens a span of time alone ("past", "the last": "for the past 30
// days") is no text value unless the description lists it ("'latest' or
// 'next'"); "KPI" is a metric's noun too ("the weekly signups KPI" →
// metric weekly signups). A parameter described as a ticker takes the
// one code in capitals of the request (one to five letters, BRK.B; first
// word included: "MSFT price"; not CSV, CEO, USD …), never a capitalised
// name: "What is Nvidia trading at?" leaves it missing, with "Nvidia"
// reported for it and the question saying a ticker is needed
// (tickers.go).
//
// Values are coerced to the property's type: integers and numbers (with
// thousands separators, 1,000, and currency or percent signs, $19.5;
// an amount of money written short with its sign, $250k, €1.2m, £3bn),
// booleans (yes/no, true/false, on/off, 1/0), arrays (comma lists or JSON
// arrays, items coerced), objects (JSON), and enums by name ignoring case,
// separators and plural, by synonym ("asc" for ascending) or by an
// unambiguous prefix. The result is then validated against the
// schema; failures are *InvalidError, missing required parameters
// *MissingError, and both tell the agent how to write the intent instead.
// Neither is worth retrying: the agent has to rephrase.
//
// Coerce applies the same type conversions to arguments that arrive
// already keyed (direct <tool_call>s), for the execute stage.
package resolve
