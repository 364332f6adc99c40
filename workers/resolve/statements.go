package resolve

import (
	"strings"
	"unicode"
)

// SQL statements written in a request. A statement is code, not words:
// it goes whole to the parameter that takes SQL, and a description of a
// query ("a query joining users and orders") is no statement.

// sqlProp: p takes SQL text: a text parameter named sql (sql, sqlQuery)
// or described as SQL, unless its description also takes a question in
// plain words ("SQL or a natural-language question").
func sqlProp(p *property) bool {
	if !stringProp(p) {
		return false
	}
	named := strings.Contains(p.norm, "sql")
	if !named && !strings.Contains(p.desc, "sql") {
		return false
	}
	for _, w := range []string{"natural language", "natural-language", "plain language", "plain english", "question"} {
		if strings.Contains(p.desc, w) {
			return false
		}
	}
	return true
}

// sqlOpeners are the first words of a statement, with the word that must
// follow within a few words for it to be one ("SELECT … FROM", "INSERT
// INTO", "UPDATE x SET", "DELETE FROM", "WITH x AS"): in lower case,
// select, update and delete are English verbs as often.
var sqlOpeners = map[string]string{"select": "from", "insert": "into", "update": "set", "delete": "from", "with": "as"}

// sqlStatement finds a SQL statement in text: it opens the text, follows
// a colon or an opening quote or backtick, or its first word is written in
// capitals, and it has its second keyword. It runs to the closing quote
// or backtick, else to the end of the text. start and end span the
// statement, its quotes included.
func sqlStatement(text string) (stmt string, start, end int) {
	for i := 0; i < len(text); i++ {
		if i > 0 && isWordByte(text[i-1]) {
			continue
		}
		j := i
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		if j == i {
			continue
		}
		word := text[i:j]
		second, ok := sqlOpeners[strings.ToLower(word)]
		if !ok {
			i = j
			continue
		}
		before := strings.TrimRightFunc(text[:i], unicode.IsSpace)
		var quote byte
		if n := len(before); n > 0 && len(before) == i && strings.IndexByte("\"'`", before[n-1]) >= 0 {
			quote = before[n-1]
		}
		opens := before == "" || quote != 0 || strings.HasSuffix(before, ":") || word == strings.ToUpper(word) || runVerbs[lastWord(before)]
		if !opens {
			i = j
			continue
		}
		s, e := i, len(text)
		if quote != 0 {
			if k := strings.LastIndexByte(text, quote); k > i {
				e = k
			}
		} else if k := proseBoundary(text, j); k >= 0 {
			e = k
		}
		body := strings.TrimRightFunc(text[s:e], func(r rune) bool { return unicode.IsSpace(r) || r == '.' || r == '?' || r == '!' })
		if !hasSQLWord(body[len(word):], second) || quote == 0 && word != strings.ToUpper(word) && !codeLike(body[len(word):], second) {
			i = j
			continue
		}
		if quote != 0 {
			s--
			if e < len(text) {
				e++
			}
		}
		return body, s, e
	}
	return "", -1, -1
}

// runVerbs, right before a statement in lower case, say that it is one
// ("run select count(*) from visits"); the statement must still read as
// code (codeLike), so "run select the best rows" is prose.
var runVerbs = setOf("run", "execute", "exec", "query")

// lastWord is the last word of text, in lower case.
func lastWord(text string) string {
	i := strings.LastIndexFunc(text, func(r rune) bool { return !isWordRune(r) })
	return strings.ToLower(text[i+1:])
}

// proseThen are the words after a comma or semicolon that open prose
// again, never SQL: ", then email it", "; and then chart it".
var proseThen = setOf("then", "afterwards", "after")

// proseVerbs are what a request asks done with a statement's result once
// it has run; after "and" and followed by an object pronoun or a
// determiner they open prose ("… and email it to me"), where a column
// of the same name is followed by an operator ("AND email IS NULL").
var proseVerbs = setOf("email", "send", "mail", "share", "post", "save", "export", "forward", "show", "tell",
	"give", "plot", "chart", "graph", "download", "attach", "put", "write", "store", "text", "message", "notify",
	"summarize", "summarise", "print", "display", "return", "copy", "upload", "slack", "ping", "let")

// proseObjects follow a verb of prose, never a column name.
var proseObjects = setOf("it", "them", "me", "us", "the", "a", "an", "that", "this", "those", "these", "my", "our",
	"to", "him", "her", "everyone", "results", "result")

// proseBoundary is where an unquoted statement that opens at from ends
// and prose resumes: a comma or semicolon then "then" (", then …", ", and
// then …", "; then …"), or "and" then a verb of prose and its object
// ("… and email it to me"). Boundaries inside a quoted literal are no
// boundaries. -1: the statement runs to the end.
func proseBoundary(text string, from int) int {
	type word struct {
		w          string
		start, end int
	}
	var ws []word
	var quote byte
	for i := from; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			continue
		case c == '\'' || c == '"' || c == '`':
			quote = c
			ws = append(ws, word{w: "'", start: i, end: i + 1})
			continue
		case c == ',' || c == ';':
			ws = append(ws, word{w: string(c), start: i, end: i + 1})
			continue
		case !isWordByte(c):
			continue
		}
		k := i
		for k < len(text) && isWordByte(text[k]) {
			k++
		}
		ws = append(ws, word{w: text[i:k], start: i, end: k})
		i = k - 1
	}
	at := func(n int) string {
		if n < len(ws) {
			return ws[n].w
		}
		return ""
	}
	for n, x := range ws {
		switch {
		case x.w == "," || x.w == ";":
			m := n + 1
			if strings.EqualFold(at(m), "and") {
				m++
			}
			if proseThen[at(m)] {
				return x.start
			}
		case x.w == "and" && n > 0:
			// The verb written in lower case and taking an object: a
			// column is followed by an operator or a keyword.
			if proseVerbs[at(n+1)] && proseObjects[at(n+2)] && n+2 < len(ws) {
				cut := x.start
				if ws[n-1].w == "," {
					cut = ws[n-1].start
				}
				return cut
			}
		}
	}
	return -1
}

// hasSQLWord: w is one of the first words of rest (within six), or, for
// SELECT, anywhere ("SELECT a, b, c, d, e, f FROM t").
func hasSQLWord(rest, w string) bool {
	ws := strings.FieldsFunc(strings.ToLower(rest), func(r rune) bool { return !isWordRune(r) })
	for k, x := range ws {
		if x == w {
			return true
		}
		if k >= 5 && w != "from" {
			break
		}
	}
	return false
}

// sqlArticles are words of prose, never of a statement: "select the
// names from users" is a request to write one.
var sqlArticles = setOf("the", "a", "an", "all", "every", "my", "our", "some", "any", "me", "us")

// codeLike: an unquoted statement in lower case reads as code: no article,
// and a symbol of SQL (*, (, =, <, >, comma, semicolon, a quoted literal)
// or its second keyword right after the first ("delete from t").
func codeLike(rest, second string) bool {
	ws := strings.FieldsFunc(strings.ToLower(rest), func(r rune) bool { return !isWordRune(r) })
	for _, w := range ws {
		if sqlArticles[w] {
			return false
		}
	}
	return strings.ContainsAny(rest, "*(=<>;,'") || len(ws) > 0 && ws[0] == second
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// looksSQL: v opens as a statement does; a guessed value for a parameter
// that takes SQL must ("joining users" is a description, not a query).
func looksSQL(v string) bool {
	stmt, _, _ := sqlStatement(strings.TrimSpace(strings.Trim(strings.TrimSpace(v), "\"'`")))
	return stmt != ""
}

// applyStatements is the rule statements: a SQL statement written in the
// request fills the parameter that takes SQL, whole; its words and quoted
// values are read by no other rule.
func (f *filler) applyStatements() {
	var p *property
	for _, q := range f.s.props {
		if q.sql && f.missing(q) {
			p = q
			break
		}
	}
	if p == nil {
		return
	}
	stmt, s, e := sqlStatement(f.text)
	if stmt == "" || !f.set(p, stmt) {
		return
	}
	for i, pr := range f.pairs {
		if pr.start < e && pr.end > s {
			f.pairUsed[i] = true
		}
	}
	f.hidden = append(f.hidden, [2]int{s, e})
}
