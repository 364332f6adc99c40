package resolve

import (
	"reflect"
	"testing"
)

var (
	// stmtRun takes SQL; stmtAsk takes a question or SQL; stmtDump takes
	// a table or the SQL of what to write out.
	stmtRun = manifest("t/run_sql", "Run SQL", `{"type":"object","required":["statement"],"properties":{
		"statement":{"type":"string","description":"The SQL to run"},
		"db":{"type":"string","description":"Database name"},
		"status":{"type":"string"}}}`)
	stmtAsk = manifest("t/ask_data", "Ask data", `{"type":"object","required":["query"],"properties":{
		"query":{"type":"string","description":"A natural-language question or SQL"}}}`)
	stmtDump = manifest("t/dump", "Dump rows", `{"type":"object","properties":{
		"table":{"type":"string","description":"Table to write out"},
		"sql":{"type":"string","description":"Query whose rows to write out"}}}`)
)

// TestStatements: a SQL statement goes whole to the parameter that takes
// SQL; prose about a query fills none.
func TestStatements(t *testing.T) {
	tests := []struct {
		name string
		text string
		want M
	}{
		{"upper case, whole request", `SELECT name, email FROM members WHERE active = true`, M{"statement": `SELECT name, email FROM members WHERE active = true`}},
		{"after a verb, quoted literal kept", `please run SELECT id FROM parcels WHERE state = 'lost'`, M{"statement": `SELECT id FROM parcels WHERE state = 'lost'`}},
		{"backticks end it", "run `select count(*) from parcels` on the archive db", M{"statement": "select count(*) from parcels"}},
		{"after a colon, lower case", `execute this: delete from sessions where age > 30;`, M{"statement": `delete from sessions where age > 30;`}},
		{"update", `UPDATE plans SET price = 12 WHERE code = 'basic'`, M{"statement": `UPDATE plans SET price = 12 WHERE code = 'basic'`}},
		{"with", `WITH recent AS (SELECT * FROM visits) SELECT count(*) FROM recent`, M{"statement": `WITH recent AS (SELECT * FROM visits) SELECT count(*) FROM recent`}},
		{"insert, sentence stop dropped", `INSERT INTO tags (name) VALUES ('urgent').`, M{"statement": `INSERT INTO tags (name) VALUES ('urgent')`}},
		{"after a verb of running, lower case", `please run select count(*) from parcels`, M{"statement": `select count(*) from parcels`}},
		{"after execute, lower case", `execute delete from sessions where age > 30`, M{"statement": `delete from sessions where age > 30`}},
		// Negatives: prose about a query, English verbs, no statement.
		{"run, then prose", `run select the best rows from the parcels table`, M{}},
		{"description of a query", `run a query matching parcels against depots to list the lost ones`, M{}},
		{"select as an English verb", `select the best rows from the parcels table`, M{}},
		{"delete as an English verb", `delete the stale sessions from last week`, M{}},
	}
	for _, tc := range tests {
		got := guessed(t, stmtRun, tc.text)
		for k := range got {
			if k != "statement" {
				delete(got, k)
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q: got %#v, want %#v", tc.name, tc.text, got, tc.want)
		}
	}
	// A statement's quoted literal and key=value are the statement's, not
	// a parameter's.
	if got := guessed(t, stmtRun, `SELECT * FROM jobs WHERE status = 'failed'`); got["status"] != nil {
		t.Errorf("status read inside the statement: %#v", got)
	}
	// A parameter that also takes a question keeps its words.
	if got := guessed(t, stmtAsk, `how many parcels were lost last week`); got["query"] == nil {
		t.Errorf("question dropped for a question-or-SQL parameter: %#v", got)
	}
}

// TestStatementProseBoundary: an unquoted statement stops where prose
// resumes (", then …", "and mail it …"); SQL's own AND, commas and
// literals do not stop it.
func TestStatementProseBoundary(t *testing.T) {
	tests := []struct {
		name string
		text string
		want M
	}{
		{"comma then", `SELECT title FROM books WHERE year > 1990, then send the list to Kim`, M{"statement": `SELECT title FROM books WHERE year > 1990`}},
		{"comma and then", `run SELECT count(*) FROM pets, and then chart it by week`, M{"statement": `SELECT count(*) FROM pets`}},
		{"semicolon then", `DELETE FROM drafts WHERE age > 90; then tell me how many went`, M{"statement": `DELETE FROM drafts WHERE age > 90`}},
		{"and a verb of prose", `SELECT city, sum(total) FROM sales GROUP BY city and email it to the team`, M{"statement": `SELECT city, sum(total) FROM sales GROUP BY city`}},
		{"and send", `SELECT * FROM invoices WHERE paid = false and send me the rows`, M{"statement": `SELECT * FROM invoices WHERE paid = false`}},
		// Negatives: the statement's own words.
		{"column named like a verb", `SELECT id FROM members WHERE active = 1 AND email IS NULL`, M{"statement": `SELECT id FROM members WHERE active = 1 AND email IS NULL`}},
		{"lower-case and, column", `select id from members where active = 1 and email = 'x'`, M{"statement": `select id from members where active = 1 and email = 'x'`}},
		{"then in a literal", `SELECT id FROM notes WHERE body = 'done, then filed'`, M{"statement": `SELECT id FROM notes WHERE body = 'done, then filed'`}},
		{"case when then", `SELECT CASE WHEN score > 5 THEN 'hi' ELSE 'lo' END FROM marks`, M{"statement": `SELECT CASE WHEN score > 5 THEN 'hi' ELSE 'lo' END FROM marks`}},
		{"select list commas", `SELECT a, b, c FROM t`, M{"statement": `SELECT a, b, c FROM t`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := guessed(t, stmtRun, tt.text)
			if s, w := got["statement"], tt.want["statement"]; !reflect.DeepEqual(s, w) {
				t.Errorf("%q: statement %#v, want %#v (all: %#v)", tt.text, s, w, got)
			}
		})
	}
}
