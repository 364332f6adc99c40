package discover

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/toolyard/toolyard/schemas"
)

// Engine is an in-memory index over a tool registry: keyword (BM25), and
// with an embedder also vector, fused. It is safe for concurrent use:
// searches run in parallel with each other, updates one at a time, and
// index compaction in the background.
type Engine struct {
	cfg     config
	mapping *mapping.IndexMappingImpl
	text    analysis.Analyzer
	exact   analysis.Analyzer
	// implied are impliedWords' analysed terms, by kind: analysed once,
	// not for every request that states such a value.
	implied map[valueKind][]string
	// mode is the effective mode: keyword when there is no working embedder.
	mode Mode
	vec  *vectors
	// enc is the sentence encoder's side (WithEncoder), nil without.
	enc *vectors
	// abilities are the encoder's vectors of assistantAbilities.
	abilities [][]float32
	// soft holds the word vectors of soft term matching, nil without.
	soft *softTable
	// phraseMemo holds the analysed terms of name and keyword phrases
	// (phrase.go), phraseMemoN how many it was given.
	phraseMemo  sync.Map
	phraseMemoN atomic.Int64
	calib       atomic.Pointer[calibModel]
	// usage is the learned usage model in force (usage.go), nil without.
	usage atomic.Pointer[usageModel]

	mu  sync.RWMutex
	idx bleve.Index
	// post propose the keyword side's candidates for idx to score.
	post  *postings
	tools map[string]*entry
	// regsum is the XOR of the tools' fingerprints (registryversion.go).
	regsum uint64
	stats  *stats
	comp   compaction
}

// New indexes tools. Tool ids must be unique.
func New(tools []schemas.Manifest, opts ...Option) (*Engine, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.log == nil {
		cfg.log = slog.Default()
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
	e.implied = make(map[valueKind][]string, len(impliedWords))
	for k, w := range impliedWords {
		e.implied[k] = terms(e.text, w)
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
		e.regsum ^= en.sum
		e.stats.add(en)
	}
	if err := e.startVectors(tools); err != nil {
		return nil, err
	}
	if e.idx, err = buildIndex(e.mapping, e.tools); err != nil {
		return nil, err
	}
	e.post = buildPostings(e.tools)
	return e, nil
}

// startVectors sets the calibration and the effective mode, and embeds the
// tools when there is an embedder. An embedder that fails here leaves the
// engine keyword-only, with an error in the log: discovery keeps working.
func (e *Engine) startVectors(tools []schemas.Manifest) error {
	cal := DefaultCalibration()
	if e.cfg.calib != nil {
		cal = *e.cfg.calib
	}
	m, err := cal.compile()
	if err != nil {
		return fmt.Errorf("discover: %w", err)
	}
	e.calib.Store(m)
	e.mode = e.cfg.mode
	if e.mode == ModeKeyword {
		return nil
	}
	if e.cfg.embedder == nil {
		if e.mode != ModeAuto {
			e.cfg.log.Warn("discover: no embedder, so keyword-only search", slog.String("mode", e.mode.String()))
		}
		e.mode = ModeKeyword
		return nil
	}
	v, err := newVectors(context.Background(), e.cfg, tools)
	if err != nil {
		e.cfg.log.Error("discover: vectors unavailable, so keyword-only search", slog.String("mode", e.mode.String()), slog.Any("err", err))
		e.mode = ModeKeyword
		return nil
	}
	e.vec = v
	// Only hybrid searches use the encoder: a vector-only engine would
	// encode every tool for nothing.
	if e.cfg.encoder != nil && e.mode != ModeVector {
		ecfg := e.cfg
		ecfg.embedder = e.cfg.encoder
		if err := e.startEncoder(ecfg, tools); err != nil {
			e.cfg.log.Error("discover: sentence encoder unavailable, searching without it", slog.Any("err", err))
		}
	}
	if e.soft = newSoftTable(e.cfg.embedder); e.soft != nil {
		for _, en := range e.tools {
			e.soft.add(en)
		}
	}
	if e.mode == ModeAuto {
		e.mode = ModeHybrid
	}
	return nil
}

// startEncoder builds the sentence encoder's side and, unless a calibration
// was given, switches to the one fitted with the encoder's features.
func (e *Engine) startEncoder(cfg config, tools []schemas.Manifest) error {
	enc, err := newVectors(context.Background(), cfg, tools)
	if err != nil {
		return err
	}
	abilities, err := encodeAbilities(context.Background(), enc)
	if err != nil {
		return err
	}
	e.enc, e.abilities = enc, abilities
	if e.cfg.calib == nil {
		m, err := DefaultEncoderCalibration().compile()
		if err != nil {
			return fmt.Errorf("discover: %w", err)
		}
		e.calib.Store(m)
	}
	return nil
}

// Mode is the mode searches run in: the configured one, or keyword when
// there is no working embedder.
func (e *Engine) Mode() Mode { return e.mode }

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
