package discover

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/toolyard/toolyard/schemas"
)

// Engine is an in-memory keyword index over a tool registry. It is safe for
// concurrent use: searches run in parallel with each other, updates one at
// a time, and index compaction in the background.
type Engine struct {
	cfg     config
	mapping *mapping.IndexMappingImpl
	text    analysis.Analyzer
	exact   analysis.Analyzer

	mu    sync.RWMutex
	idx   bleve.Index
	tools map[string]*entry
	stats *stats
	comp  compaction
}

// New indexes tools. Tool ids must be unique.
func New(tools []schemas.Manifest, opts ...Option) (*Engine, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("discover: %w", err)
	}
	im, err := newMapping(cfg.boosts)
	if err != nil {
		return nil, fmt.Errorf("discover: index mapping: %w", err)
	}
	e := &Engine{
		cfg: cfg, mapping: im,
		text:  im.AnalyzerNamed(textAnalyzer),
		exact: im.AnalyzerNamed(exactAnalyzer),
		tools: make(map[string]*entry, len(tools)),
		stats: newStats(),
	}
	if e.text == nil || e.exact == nil {
		return nil, fmt.Errorf("discover: analyzers %s and %s not built", textAnalyzer, exactAnalyzer)
	}
	entries, err := e.newEntries(tools)
	if err != nil {
		return nil, err
	}
	for i, en := range entries {
		if _, dup := e.tools[en.cand.ToolID]; dup {
			return nil, fmt.Errorf("discover: tool %d: id %q already given", i, en.cand.ToolID)
		}
		e.tools[en.cand.ToolID] = en
		e.stats.add(en)
	}
	if e.idx, err = buildIndex(e.mapping, e.tools); err != nil {
		return nil, err
	}
	return e, nil
}

// newEntries analyses manifests on every core: analysis is most of the
// cost of indexing a large registry, and entries are independent.
func (e *Engine) newEntries(tools []schemas.Manifest) ([]*entry, error) {
	out := make([]*entry, len(tools))
	errs := make([]error, len(tools))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(tools)/64))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(tools); i += workers {
				out[i], errs[i] = e.newEntry(tools[i])
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("discover: tool %d: %w", i, err)
		}
	}
	return out, nil
}

// Len is the number of indexed tools.
func (e *Engine) Len() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return len(e.tools)
}

// Close waits for a running compaction and releases the index. The engine
// must not be used afterwards.
func (e *Engine) Close() error {
	e.mu.Lock()
	e.comp.closed = true
	e.mu.Unlock()
	e.comp.running.Wait()
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.idx.Close(); err != nil {
		return fmt.Errorf("discover: close index: %w", err)
	}
	return nil
}
