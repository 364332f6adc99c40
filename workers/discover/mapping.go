package discover

import (
	"fmt"
	"slices"
	"sort"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"
)

// newMapping declares the analysed text fields and the exact-match scope
// fields; nothing is stored, since answers come from the engine's own entries.
func newMapping(b FieldBoosts) (*mapping.IndexMappingImpl, error) {
	im := bleve.NewIndexMapping()
	im.ScoringModel = index.BM25Scoring
	if err := addAnalyzers(im); err != nil {
		return nil, err
	}
	im.DefaultAnalyzer = textAnalyzer
	im.StoreDynamic, im.IndexDynamic, im.DocValuesDynamic = false, false, false
	dm := bleve.NewDocumentStaticMapping()
	field := func(analyzer string) *mapping.FieldMapping {
		fm := bleve.NewTextFieldMapping()
		fm.Analyzer = analyzer
		fm.Store, fm.IncludeTermVectors, fm.IncludeInAll, fm.DocValues = false, false, false, false
		return fm
	}
	for _, f := range textFields(b) {
		dm.AddFieldMappingsAt(f.name, field(textAnalyzer))
	}
	dm.AddFieldMappingsAt(fieldID, field(keyword.Name))
	dm.AddFieldMappingsAt(fieldServer, field(keyword.Name))
	im.DefaultMapping = dm
	return im, im.Validate()
}

type boostedField struct {
	name  string
	index int // in indexedFields
	boost float64
}

// textFields lists the searched fields with their boosts; a field boosted
// to 0 is not searched at all.
func textFields(b FieldBoosts) []boostedField {
	all := []boostedField{
		{name: fieldName, boost: b.Name}, {name: fieldKeywords, boost: b.Keywords},
		{name: fieldExamples, boost: b.Examples}, {name: fieldDescription, boost: b.Description},
		{name: fieldParams, boost: b.Params},
	}
	out := all[:0]
	for _, f := range all {
		if f.boost > 0 {
			f.index = slices.Index(indexedFields[:], f.name)
			out = append(out, f)
		}
	}
	return out
}

// buildIndex indexes tools into a fresh index, as one batch so the index is
// a single segment. It reads only immutable entries, so it needs no lock.
func buildIndex(im *mapping.IndexMappingImpl, tools map[string]*entry) (bleve.Index, error) {
	// An empty path keeps scorch in memory. scorch rather than bleve's
	// NewMemOnly (upsidedown), because only scorch has the field statistics
	// BM25 needs; without them bleve silently scores with TF-IDF.
	idx, err := bleve.NewUsing("", im, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("discover: create index: %w", err)
	}
	ids := make([]string, 0, len(tools))
	for id := range tools {
		ids = append(ids, id)
	}
	sort.Strings(ids) // index order breaks score ties: keep it reproducible
	// One batch makes one segment, the fastest to search; but a batch holds
	// every analysed document at once, which for a very large registry is
	// more memory than the finished index. Those are built in slices.
	for start := 0; start < len(ids); start += maxBatchTools {
		end := min(start+maxBatchTools, len(ids))
		b := idx.NewBatch()
		for _, id := range ids[start:end] {
			if err := b.Index(id, tools[id].doc); err != nil {
				_ = idx.Close()
				return nil, fmt.Errorf("discover: index tool %s: %w", id, err)
			}
		}
		if err := idx.Batch(b); err != nil {
			_ = idx.Close()
			return nil, fmt.Errorf("discover: index tools %d–%d of %d: %w", start, end, len(ids), err)
		}
	}
	return idx, nil
}

// maxBatchTools bounds one indexing batch; registries up to this size are
// indexed as a single segment.
const maxBatchTools = 200_000
