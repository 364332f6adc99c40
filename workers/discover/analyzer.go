package discover

import (
	"fmt"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/stop"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/analysis/tokenmap"
	"github.com/blevesearch/bleve/v2/mapping"
)

const (
	// textAnalyzer turns tool text and queries into stemmed content terms.
	textAnalyzer = "toolyard_text"
	// exactAnalyzer keeps every word, only folding case and plurals, so a
	// tool name mentioned in a query can be recognised as such.
	exactAnalyzer = "toolyard_exact"

	chatStopMap    = "toolyard_chat_stop_words"
	chatStopFilter = "toolyard_chat_stop"
)

// chatStopWords are the politeness and request words of agent and user
// text ("could you please …", "I need to …"). They never describe what a
// tool does, and left in they dilute how much of a request a tool covers.
var chatStopWords = []string{
	"please", "pls", "kindly", "hey", "hi", "hello", "thanks", "thank",
	"want", "wants", "wanna", "need", "needs", "would", "could", "can",
	"may", "might", "let", "let's", "also", "just", "really", "sure",
	"i'm", "i'd", "i'll", "i've", "you're", "okay", "ok",
}

// addAnalyzers defines the two analyzers on an index mapping.
func addAnalyzers(im *mapping.IndexMappingImpl) error {
	words := make([]interface{}, len(chatStopWords))
	for i, w := range chatStopWords {
		words[i] = w
	}
	if err := im.AddCustomTokenMap(chatStopMap, map[string]interface{}{
		"type": tokenmap.Name, "tokens": words,
	}); err != nil {
		return fmt.Errorf("token map %s: %w", chatStopMap, err)
	}
	if err := im.AddCustomTokenFilter(chatStopFilter, map[string]interface{}{
		"type": stop.Name, "stop_token_map": chatStopMap,
	}); err != nil {
		return fmt.Errorf("token filter %s: %w", chatStopFilter, err)
	}
	// Possessives go before splitting ("user's" is one unicode token);
	// splitting before lowercasing, since case marks camelCase boundaries.
	if err := im.AddCustomAnalyzer(textAnalyzer, map[string]interface{}{
		"type":      custom.Name,
		"tokenizer": unicode.Name,
		"token_filters": []string{
			en.PossessiveName, splitFilterName, lowercase.Name,
			en.StopName, chatStopFilter, en.SnowballStemmerName,
		},
	}); err != nil {
		return fmt.Errorf("analyzer %s: %w", textAnalyzer, err)
	}
	if err := im.AddCustomAnalyzer(exactAnalyzer, map[string]interface{}{
		"type":      custom.Name,
		"tokenizer": unicode.Name,
		"token_filters": []string{
			en.PossessiveName, splitFilterName, lowercase.Name, en.PluralStemmerName,
		},
	}); err != nil {
		return fmt.Errorf("analyzer %s: %w", exactAnalyzer, err)
	}
	return nil
}

// terms returns the terms of text in order, repeats included.
func terms(a analysis.Analyzer, text string) []string {
	if text == "" {
		return nil
	}
	ts := a.Analyze([]byte(text))
	out := make([]string, 0, len(ts))
	for _, t := range ts {
		if len(t.Term) > 0 {
			out = append(out, string(t.Term))
		}
	}
	return out
}
