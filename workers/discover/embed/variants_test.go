package embed

import (
	"os"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// TestRetrievalVariants prints the table of embedder variants behind the
// defaults (README.md). It is a measurement, not a check: run it with
// EMBED_VARIANTS=1 go test -run TestRetrievalVariants -v.
func TestRetrievalVariants(t *testing.T) {
	if os.Getenv("EMBED_VARIANTS") == "" {
		t.Skip("set EMBED_VARIANTS=1 to measure the variants")
	}
	sets := []benchSet{loadSet(t, "metatool"), loadSet(t, "sealtools")}
	type variant struct {
		name string
		opts []LocalOption
		text func(schemas.Manifest) string
	}
	def := ToolText
	vs := []variant{
		{"default", nil, def},
		{"a=1e-2", []LocalOption{WithSIF(1e-2)}, def},
		{"a=3e-4", []LocalOption{WithSIF(3e-4)}, def},
		{"a=1e-4", []LocalOption{WithSIF(1e-4)}, def},
		{"whiten=off", []LocalOption{WithWhitening(false)}, def},
		{"whiten=off a=1e-4", []LocalOption{WithWhitening(false), WithSIF(1e-4)}, def},
		{"cc=0", []LocalOption{WithCommonComponents(0)}, def},
		{"cc=0 whiten=off", []LocalOption{WithCommonComponents(0), WithWhitening(false)}, def},
		{"cc=2", []LocalOption{WithCommonComponents(2)}, def},
		{"ngram=0", []LocalOption{WithNgramWeight(0)}, def},
		{"ngram=0.5", []LocalOption{WithNgramWeight(0.5)}, def},
		{"subwords=off", []LocalOption{WithSubwords(false)}, def},
		{"vocab=25k", []LocalOption{WithVocabLimit(25000)}, def},
		{"vocab=50k", []LocalOption{WithVocabLimit(50000)}, def},
		{"vocab=100k", []LocalOption{WithVocabLimit(100000)}, def},
		{"vocab=150k", []LocalOption{WithVocabLimit(150000)}, def},
		{"vocab=200k", []LocalOption{WithVocabLimit(200000)}, def},
		{"text=name+desc", nil, func(m schemas.Manifest) string { return toolText(m, textFields{}) }},
		{"text=+keywords", nil, func(m schemas.Manifest) string { return toolText(m, textFields{keywords: true}) }},
		{"text=+params", nil, func(m schemas.Manifest) string {
			return toolText(m, textFields{keywords: true, paramNames: true})
		}},
		{"text=+param descs", nil, func(m schemas.Manifest) string {
			return toolText(m, textFields{keywords: true, paramNames: true, paramDescs: true, examples: true})
		}},
		{"text=name twice", nil, func(m schemas.Manifest) string { return words(m.Name) + ". " + ToolText(m) }},
		{"text=no name", nil, func(m schemas.Manifest) string {
			m.Name, m.ID = "", ""
			return ToolText(m)
		}},
		{"text=all-keywords", nil, func(m schemas.Manifest) string {
			return toolText(m, textFields{paramNames: true, paramDescs: true, examples: true})
		}},
		{"text=descs-names", nil, func(m schemas.Manifest) string {
			return toolText(m, textFields{keywords: true, paramDescs: true, examples: true})
		}},
	}
	for _, v := range vs {
		l := needLocal(t, v.opts...)
		for _, s := range sets {
			t.Logf("%-18s %-9s %v", v.name, s.name, evaluate(t, l, s, v.text))
		}
	}
}
