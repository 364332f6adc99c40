package resolve

import (
	"strings"
	"testing"
	"unicode/utf8"
)

type kv struct {
	key, value string
	form       byte
}

func TestExtractPairs(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []kv
	}{
		{"equals", "path=/tmp", []kv{{"path", "/tmp", '='}}},
		{"equals with spaces", "limit = 50", []kv{{"limit", "50", '='}}},
		{"double quoted", `query="tech companies" limit=5`, []kv{{"query", "tech companies", '='}, {"limit", "5", '='}}},
		{"single quoted with apostrophe", `title='it's fine'`, []kv{{"title", "it's fine", '='}}},
		{"typographic quotes", "title=“Team sync”", []kv{{"title", "Team sync", '='}}},
		{"escaped quote", `msg="say \"hi\" \\ bye"`, []kv{{"msg", `say "hi" \ bye`, '='}}},
		{"colon runs to comma", "note: some words here, limit: 5", []kv{{"note", "some words here", ':'}, {"limit", "5", ':'}}},
		{"colon runs to next key", "query: tech companies limit: 5", []kv{{"query", "tech companies", ':'}, {"limit", "5", ':'}}},
		{"colon quoted", `query: "a, b"`, []kv{{"query", "a, b", ':'}}},
		{"url value keeps its = and ?", "url=https://x.com/a?b=c", []kv{{"url", "https://x.com/a?b=c", '='}}},
		{"url is not a key", "see https://example.com now", nil},
		{"time is not a key", "at 10:30 today", nil},
		{"bare quoted", `count "bare value" please`, []kv{{"", "bare value", 0}}},
		{"bare typographic", "say “hello world”", []kv{{"", "hello world", 0}}},
		{"apostrophe is not a quote", "don't stop", nil},
		{"comma-joined pairs split", "limit=5,k=3", []kv{{"limit", "5", '='}, {"k", "3", '='}}},
		{"comma list stays one value", "tags=a,b,c", []kv{{"tags", "a,b,c", '='}}},
		{"brackets around", "(limit=5)", []kv{{"limit", "5", '='}}},
		{"sentence full stop", "path=/tmp.", []kv{{"path", "/tmp", '='}}},
		{"dot path kept", "path=.", []kv{{"path", ".", '='}}},
		{"trailing comma", "limit=5, then", []kv{{"limit", "5", '='}}},
		{"comparison is not a pair", "a==b", nil},
		{"space after equals", "x= y", []kv{{"x", "y", '='}}},
		{"nothing after equals", "x=", nil},
		{"colon at end", "Note:", nil},
		{"unterminated quote runs to the end", `say "abc.`, []kv{{"", "abc", 0}}},
		{"unterminated sentence keeps its stop", `send "Don't forget to feed the cat.`, []kv{{"", "Don't forget to feed the cat.", 0}}},
		{"stray quote mid-text is not a value", `a "b c "d`, nil},
		{"unterminated single quote is not a value", `say 'abc`, nil},
		{"dashed key", "max-results=5", []kv{{"max-results", "5", '='}}},
		{"dotted key", "opts.depth=2", []kv{{"opts.depth", "2", '='}}},
		{"key after a sentence", "end of sentence. limit=5", []kv{{"limit", "5", '='}}},
		{"unicode key and value", "città=Zürich", []kv{{"città", "Zürich", '='}}},
		{"quote after equals unterminated", `k="abc def`, []kv{{"k", "abc def", '='}}},
		{"closing quote must end a token", `k="a"b c`, []kv{{"k", `"a"b`, '='}}},
		{"multiple mixed", `scrape maps query='coffee' location: Berlin, limit=50`, []kv{{"query", "coffee", '='}, {"location", "Berlin", ':'}, {"limit", "50", '='}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := extractPairs(tt.in)
			var gotKV []kv
			for _, p := range got {
				gotKV = append(gotKV, kv{p.key, p.value, p.form})
			}
			if len(gotKV) != len(tt.want) {
				t.Fatalf("extractPairs(%q) = %q, want %q", tt.in, gotKV, tt.want)
			}
			for i := range gotKV {
				if gotKV[i] != tt.want[i] {
					t.Errorf("pair %d = %q, want %q", i, gotKV[i], tt.want[i])
				}
			}
			checkSpans(t, tt.in, got)
		})
	}
}

// checkSpans asserts what every extraction must satisfy, whatever the text.
func checkSpans(t *testing.T, text string, ps []pair) {
	t.Helper()
	prev := 0
	for i, p := range ps {
		if p.start < prev || p.end <= p.start || p.end > len(text) || p.keyStart != p.start {
			t.Fatalf("pair %d span [%d,%d) after %d in %d bytes: out of order or bounds", i, p.start, p.end, prev, len(text))
		}
		prev = p.end
		if p.key != "" && !strings.HasPrefix(text[p.start:], p.key) {
			t.Fatalf("pair %d key %q is not at its offset %d", i, p.key, p.start)
		}
		if p.key == "" && !p.quoted {
			t.Fatalf("pair %d has neither key nor quotes", i)
		}
		if !p.quoted && !strings.Contains(text[p.start:p.end], p.value) {
			t.Fatalf("pair %d unquoted value %q not inside its span %q", i, p.value, text[p.start:p.end])
		}
		if p.key != "" && p.form != '=' && p.form != ':' {
			t.Fatalf("pair %d has key and form %q", i, p.form)
		}
	}
}

func FuzzExtractPairs(f *testing.F) {
	for _, s := range []string{
		"path=/tmp", `query="tech companies" limit=5`, "note: a, b: c", `"bare" 'x' “y”`,
		`k="a\"b\\"`, "limit=5,k=3", "tags=a,b,c", "x=", "a==b", "don't", "url=https://a.b/c?d=e",
		"q: x y z=1", `k="unterminated`, "(limit=5).", "città=Zürich", "\xff=\xfe", "=", ":", `"`, "k = 'v' ; j: “w”",
		// Shapes that were once quadratic: many unclosed quotes, many keys.
		strings.Repeat("“ ", 2000), strings.Repeat(`" `, 2000), strings.Repeat("a: ", 2000), strings.Repeat("k=v,", 2000),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ps := extractPairs(text)
		checkSpans(t, text, ps)
		for _, p := range ps {
			if utf8.ValidString(text) && !utf8.ValidString(p.value) {
				t.Fatalf("value %q of valid text %q is not valid UTF-8", p.value, text)
			}
		}
	})
}

// FuzzExtractRoundTrip: whatever the value, key="escaped value" reads back
// as exactly that value.
func FuzzExtractRoundTrip(f *testing.F) {
	for _, s := range []string{"", "x", "tech companies", `say "hi"`, `back\slash\`, "it's", "a=b, c: d", "“q”", "\n\t"} {
		f.Add("query", s)
	}
	f.Add("max_results", "1,000")
	f.Fuzz(func(t *testing.T, key, value string) {
		if keyAt(key, 0) != len(key) || key == "" {
			t.Skip("not an identifier")
		}
		esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(value)
		text := "run it " + key + `="` + esc + `" now`
		ps := extractPairs(text)
		if len(ps) == 0 || ps[0].key != key || ps[0].value != value {
			t.Fatalf("extractPairs(%q) = %+v, want first pair %s=%q", text, ps, key, value)
		}
		checkSpans(t, text, ps)
	})
}
