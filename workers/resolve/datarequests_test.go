package resolve

import (
	"reflect"
	"testing"
)

// Tools of the kind data and finance requests go to, invented for these
// tests.
var (
	dataLease = manifest("t/lease", "Lease quote", `{"type":"object","required":["rent","term"],"properties":{
		"rent":{"type":"number","description":"Monthly rent"},"term":{"type":"integer","description":"Lease term in months"},
		"deposit":{"type":"number","description":"Deposit in percent of the rent"}}}`)
	dataSavings = manifest("t/savings", "Savings projection", `{"type":"object","required":["deposit","rate","years"],"properties":{
		"deposit":{"type":"number","description":"Amount put in"},"rate":{"type":"number","description":"Interest rate as a decimal fraction, e.g. 0.03"},
		"years":{"type":"integer","description":"Duration in years"}}}`)
	dataBare = manifest("t/bare", "Yield", `{"type":"object","properties":{
		"principal":{"type":"number","description":"Amount invested"},"rate":{"type":"number","description":"Interest rate"}}}`)
	dataPledge = manifest("t/pledge", "Pledge plan", `{"type":"object","required":["total"],"properties":{
		"total":{"type":"number","description":"Pledge amount"},"months":{"type":"integer"}}}`)
	dataCache = manifest("t/cache", "Cache put", `{"type":"object","required":["key"],"properties":{
		"key":{"type":"string"},"ttl_seconds":{"type":"integer","description":"Time to live"}}}`)
	dataHotel = manifest("t/hotel", "Hotel search", `{"type":"object","properties":{
		"city":{"type":"string"},"price":{"type":"number","description":"Highest price per night"},
		"guests":{"type":"integer","description":"Number of guests"}}}`)
	dataBars = manifest("t/bars", "Price bars", `{"type":"object","required":["ticker"],"properties":{
		"ticker":{"type":"string","description":"Ticker symbol"},"interval":{"type":"string","enum":["1m","5m","1h","1d","1wk"]}}}`)
	dataUsage = manifest("t/usage", "Usage report", `{"type":"object","properties":{
		"product":{"type":"string"},"grain":{"type":"string","enum":["D","W","M"],"description":"Time grain"}}}`)
	dataStats = manifest("t/stats", "Column stats", `{"type":"object","required":["table","column"],"properties":{
		"table":{"type":"string","description":"Table name"},"column":{"type":"string","description":"Column to summarise"},
		"percentiles":{"type":"array","items":{"type":"number"},"description":"Percentiles wanted"}}}`)
	dataQuantile = manifest("t/quantile", "Quantile", `{"type":"object","required":["series"],"properties":{
		"series":{"type":"string","description":"Series name"},"percentile":{"type":"number"}}}`)
	dataOrders = manifest("t/orders", "List orders", `{"type":"object","properties":{
		"client":{"type":"string","description":"Client name or id"},"status":{"type":"string","enum":["open","shipped"]}}}`)
	dataVisits = manifest("t/visits", "Visit report", `{"type":"object","properties":{
		"user":{"type":"string","description":"User name"},"city":{"type":"string"}}}`)
	dataSpend = manifest("t/spend", "Card spend", `{"type":"object","properties":{
		"payee":{"type":"string","description":"Merchant name"},"card":{"type":"string","description":"Card id"}}}`)
	dataWorkbook = manifest("t/workbook", "Write workbook", `{"type":"object","properties":{
		"table":{"type":"string"},"book":{"type":"string","description":"Workbook name"},"page":{"type":"string","description":"Worksheet name"}}}`)
)

// TestLengthsConvert: a length of time goes to a numeric parameter for
// one in the parameter's unit, of the same kind only.
func TestLengthsConvert(t *testing.T) {
	checkGuesses(t, []guessCase{
		{m: dataLease, text: "quote a lease at 1800 rent for 2 years", want: M{"rent": float64(1800), "term": int64(24)}},
		{m: dataLease, text: "quote a lease at 1800 rent for a year and a half", want: M{"rent": float64(1800), "term": int64(18)}},
		{m: dataLease, text: "a 3-year lease at 1800 rent", want: M{"rent": float64(1800), "term": int64(36)}},
		{m: dataCache, text: "cache put session-9 with a time to live of 5 minutes", want: M{"key": "session-9", "ttl_seconds": int64(300)}},
		// Days are no whole number of months.
		{m: dataLease, text: "quote a lease at 1800 rent for 90 days", want: M{"rent": float64(1800)}},
		// Half an hour in whole hours is none.
		{m: manifest("t/slot", "Slot", `{"type":"object","properties":{"hours":{"type":"integer","description":"Duration in hours"}}}`),
			text: "book a slot for 90 minutes", want: M{}},
	})
}

// TestPercentages: a percentage goes to the parameter described in
// percent as written, as a fraction divided by 100, and to a rate with
// no scale not at all.
func TestPercentages(t *testing.T) {
	checkGuesses(t, []guessCase{
		{m: dataLease, text: "lease at 1800 rent over 12 months, 150% deposit", want: M{"rent": float64(1800), "term": int64(12), "deposit": float64(150)}},
		{m: dataSavings, text: "project savings on a 5000 deposit at 3.5% for 10 years", want: M{"deposit": float64(5000), "rate": 0.035, "years": int64(10)}},
		{m: dataSavings, text: "project savings of 5000 at 3.5 percent over 10 years", want: M{"deposit": float64(5000), "rate": 0.035, "years": int64(10)}},
		{m: dataBare, text: "yield on 1000 invested at 4%", want: M{"principal": float64(1000)}},
		// Two percentages: which is the rate is not said.
		{m: dataSavings, text: "savings at 3% or 4% for 10 years", want: M{"years": int64(10)}},
	})
}

// TestDescribedNumbers: a number next to a noun of one numeric
// parameter's description is its value, never a count after "per".
func TestDescribedNumbers(t *testing.T) {
	checkGuesses(t, []guessCase{
		{m: dataHotel, text: "hotels in Lisbon for 3 guests", want: M{"city": "Lisbon", "guests": int64(3)}},
		{m: dataHotel, text: "hotels in Lisbon, guests 2, 3 nights", want: M{"city": "Lisbon", "guests": int64(2)}},
	})
}

// TestFrequencies: an adverb of frequency picks the enum member that
// codes its grain, whatever the code; never a minute for a month, nor a
// metric's name.
func TestFrequencies(t *testing.T) {
	checkGuesses(t, []guessCase{
		{m: dataBars, text: "daily bars for ACME", want: M{"ticker": "ACME", "interval": "1d"}},
		{m: dataBars, text: "hourly bars for ACME", want: M{"ticker": "ACME", "interval": "1h"}},
		{m: dataBars, text: "monthly bars for ACME", want: M{"ticker": "ACME"}},
		{m: dataUsage, text: "weekly usage of the mobile app", want: M{"grain": "W"}},
		{m: dataUsage, text: "monthly usage", want: M{"grain": "M"}},
		{m: dataUsage, text: "monthly active users", want: M{}},
	})
}

// TestPercentilesAndTables: percentiles, a column after "of" and a table
// after in/from, in the shorthand of data requests.
func TestPercentilesAndTables(t *testing.T) {
	checkGuesses(t, []guessCase{
		{m: dataStats, text: "the 75th and 90th percentiles of basket_size in carts", want: M{"table": "carts", "column": "basket_size", "percentiles": []any{float64(75), float64(90)}}},
		{m: dataStats, text: "p50 and p99.9 of queue_wait from jobs", want: M{"table": "jobs", "column": "queue_wait", "percentiles": []any{float64(50), 99.9}}},
		{m: dataQuantile, text: "the 90th percentile of Errors", want: M{"series": "Errors", "percentile": float64(90)}},
		// An ordinal of no percentile, and idioms after "in".
		{m: dataQuantile, text: "the 3rd row of Errors", want: M{"series": "Errors"}},
		{m: dataStats, text: "the mean of basket_size in total", want: M{"column": "basket_size"}},
		{m: dataStats, text: "stats of basket_size in detail", want: M{"column": "basket_size"}},
		{m: dataStats, text: "stats of basket_size in March", want: M{"column": "basket_size"}},
		// A word not ending its clause is no table.
		{m: dataStats, text: "stats in carts of today", want: M{}},
		// Two percentiles for one number: none.
		{m: dataQuantile, text: "p90 and p99 of Errors", want: M{"series": "Errors"}},
		// A snake_case name before its noun.
		{m: dataStats, text: "stats of the daily_orders table", want: M{"table": "daily_orders"}},
	})
}

// TestOwners: a name after "for" fills an optional parameter for whom
// things belong to, described as a name or id; never while a place is
// missing, nor a month.
func TestOwners(t *testing.T) {
	checkGuesses(t, []guessCase{
		{m: dataOrders, text: "open orders for Wayne Holdings", want: M{"client": "Wayne Holdings", "status": "open"}},
		{m: dataOrders, text: "shipped orders for May", want: M{"status": "shipped"}},
		{m: dataVisits, text: "visit report for Denver", want: M{"city": "Denver"}},
		{m: manifest("t/notes", "Notes", `{"type":"object","properties":{"owner":{"type":"string","description":"Who wrote it"}}}`),
			text: "notes for Ada", want: M{}},
	})
}

// TestSellersAndDescribedCues: "at" a name is the merchant; a value
// after the noun a description names a parameter by is its, before a
// name cue.
func TestSellersAndDescribedCues(t *testing.T) {
	checkGuesses(t, []guessCase{
		{m: dataSpend, text: "card spend at Blue Bottle", want: M{"payee": "Blue Bottle"}},
		{m: dataSpend, text: "card spend at 5pm", want: M{}},
		{m: dataSpend, text: "spend on card 4411 at Blue Bottle", want: M{"card": "4411", "payee": "Blue Bottle"}},
		{m: dataWorkbook, text: "write the leads_q3 table to the book Pipeline, worksheet Leads", want: M{"table": "leads_q3", "book": "Pipeline", "page": "Leads"}},
		{m: dataWorkbook, text: "write the leads_q3 table to the page Leads", want: M{"table": "leads_q3", "page": "Leads"}},
	})
}

// TestUnmappedNameNoQuery: a name no rule placed is reported for a text
// parameter that can take it, never for one that takes SQL.
func TestUnmappedNameNoQuery(t *testing.T) {
	m := manifest("t/push", "Push rows", `{"type":"object","properties":{
		"sql":{"type":"string","description":"Query to run"},"workbook":{"type":"string","description":"Workbook to write to"}}}`)
	f := fillOnly(t, m, "push the rows to the file Quarterly")
	var got []string
	for _, u := range f.unmapped() {
		got = append(got, u.Text+":"+u.Parameter)
	}
	if want := []string{"Quarterly:workbook"}; !reflect.DeepEqual(got, want) {
		t.Errorf("unmapped %q, want %q", got, want)
	}
}
