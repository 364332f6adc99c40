package resolve

import (
	"context"
	"reflect"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// freeCounter counts the words of a text; its name and id share words
// with the texts asked about (word, count, text).
var freeCounter = manifest("text/word_count", "Word count", `{"type":"object","required":["text"],"properties":{
	"text":{"type":"string","description":"The text whose words to count"}}}`)

// freeNotes takes a note's text; freeFinder a search query.
var (
	freeNotes = manifest("notes/note", "Note", `{"type":"object","required":["text"],"properties":{
		"text":{"type":"string"}}}`)
	freeFinder = manifest("kb/search", "Search knowledge base", `{"type":"object","required":["query"],"properties":{
		"query":{"type":"string"},"limit":{"type":"integer"}}}`)
)

// TestFreetextFrame: the free text is what follows the request's frame
// (its verb, the tool's words, the question, and the cue that introduces
// the value), verbatim: articles, the tool's own words and every other
// word inside it are kept; where no cue parts frame and value, words are
// kept rather than dropped.
func TestFreetextFrame(t *testing.T) {
	checkGuessesOn(t, freeCounter, nil, []textCase{
		// After the cue, the span whole.
		{"count the words in the cat sat on the mat", M{"text": "the cat sat on the mat"}},
		{"count the words in a b c", M{"text": "a b c"}},
		{"count the words in an essay about counting words", M{"text": "an essay about counting words"}},
		{"count the words of some text about word counts", M{"text": "some text about word counts"}},
		{"how many words are in it is what it is", M{"text": "it is what it is"}},
		{"how many words does this have: the end is near", M{"text": "the end is near"}},
		{"please count the words in to be or not to be", M{"text": "to be or not to be"}},
		{"count the words in this is a test of it", M{"text": "this is a test of it"}},
		// No cue: the value starts after the frame's last word, a clause
		// whole ("this is …").
		{"count words this is a test", M{"text": "this is a test"}},
		{"word count hello there world", M{"text": "hello there world"}},
		// Negatives: the frame alone, or a reference to the tool's thing,
		// gives no text; framing after the value is not the value's.
		{"count the words", M{}},
		{"count the words in the text", M{}},
		{"count the words of this paragraph", M{}},
		// The request's own verb opens the frame, whatever it is.
		{"tell me the word count of hello there", M{"text": "hello there"}},
		{"please tell me how many words are in it is late", M{"text": "it is late"}},
		{"count the words in hello world, please", M{"text": "hello world"}},
	})
	checkGuessesOn(t, freeNotes, nil, []textCase{
		{"note that the boiler needs a service", M{"text": "the boiler needs a service"}},
		// Without the cue, a lone article after the verb is read as the
		// frame's, as in "find a recipe".
		{"note the boiler needs a service", M{"text": "boiler needs a service"}},
	})
	checkGuessesOn(t, freeFinder, nil, []textCase{
		// A place the tool is used in, written with its words, closes
		// the request: no part of the query.
		{"look up Grace Hopper in the knowledge base", M{"query": "Grace Hopper"}},
		{"search for refund policy on the knowledge base", M{"query": "refund policy"}},
		// With no cue, the tool's word ending the request is its frame.
		{"find a refund policy search", M{"query": "refund policy"}},
		// A count another rule placed is no part of it.
		{"search for pricing pages, top 3", M{"query": "pricing pages", "limit": int64(3)}},
		{"what can I read about onboarding", M{"query": "read about onboarding"}},
		{"who is Grace Hopper", M{"query": "Grace Hopper"}},
	})
}

// TestFreetextNestedResult: an inner intent's result substituted into the
// text (Intent.Nested) is one value, whole: no frame reaches into it,
// its articles and the tool's words in it are kept, and its "a text" is
// no unnamed thing. The same words written by the agent are read as
// phrasing.
func TestFreetextNestedResult(t *testing.T) {
	const outer = "count the words in "
	for _, tc := range []struct {
		inner  string
		nested bool
		want   map[string]any // nil: the text is missing
	}{
		{"the words in a text", true, M{"text": "the words in a text"}},
		{"the text", true, M{"text": "the text"}},
		{"alpha beta gamma delta", true, M{"text": "alpha beta gamma delta"}},
		{"count words: in a text", true, M{"text": "count words: in a text"}},
		// Negatives: not a result, the words are the request's own.
		{"the words in a text", false, nil},
		{"the text", false, nil},
	} {
		r := routed(outer + tc.inner)
		if tc.nested {
			r.Intent.Nested = []schemas.Nested{{ID: "i-0", Start: len(outer), End: len(outer) + len(tc.inner)}}
		}
		call, err := Resolve(context.Background(), r, freeCounter)
		var got map[string]any
		if err == nil {
			got = call.Parameters
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q (nested %v): got %#v (%v), want %#v", r.Intent.Text, tc.nested, got, err, tc.want)
		}
	}
}
