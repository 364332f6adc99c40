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
		opens := before == "" || quote != 0 || strings.HasSuffix(before, ":") || word == strings.ToUpper(word)
		if !opens {
			i = j
			continue
		}
		s, e := i, len(text)
		if quote != 0 {
			if k := strings.LastIndexByte(text, quote); k > i {
				e = k
			}
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
