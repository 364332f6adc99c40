package discover

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"sync"

	"github.com/blevesearch/bleve/v2"

	"github.com/toolyard/toolyard/schemas"
)

// Put adds a tool or replaces the tool with the same id; the next search sees it.
func (e *Engine) Put(m schemas.Manifest) error {
	en, err := e.newEntry(m)
	if err != nil {
		return fmt.Errorf("discover: put: %w", err)
	}
	vec := embedTool(e.vec, m, e.cfg.log)
	encVec := embedTool(e.enc, m, e.cfg.log)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.idx.Index(m.ID, en.doc); err != nil {
		return fmt.Errorf("discover: put tool %s: %w", m.ID, err)
	}
	e.post.put(en)
	if err := errors.Join(e.vec.put(m.ID, vec), e.enc.put(m.ID, encVec)); err != nil {
		return fmt.Errorf("discover: put tool %s: %w", m.ID, err)
	}
	if old, ok := e.tools[m.ID]; ok {
		e.stats.remove(old)
		e.regsum ^= old.sum
	}
	e.tools[m.ID] = en
	e.regsum ^= en.sum
	e.stats.add(en)
	if e.soft != nil {
		e.soft.add(en)
	}
	return e.changed(change{id: m.ID, en: en})
}

// embedTool returns the tool's vector on side v, nil when there is no such
// side or its embedder failed; a tool without a vector is still found by
// keywords, so the failure is logged rather than failing the update.
func embedTool(v *vectors, m schemas.Manifest, log *slog.Logger) []float32 {
	if v == nil {
		return nil
	}
	vecs, err := v.embedTools(context.Background(), []schemas.Manifest{m})
	if err != nil {
		log.Warn("discover: tool not embedded, found by keywords only", slog.String("tool", m.ID), slog.String("embedder", v.emb.ID()), slog.Any("err", err))
		return nil
	}
	return vecs[0]
}

// Remove deletes a tool. Removing an unknown id is not an error: registry
// watchers may deliver a delete for a tool this engine never saw.
func (e *Engine) Remove(id string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	old, ok := e.tools[id]
	if !ok {
		return nil
	}
	if err := e.idx.Delete(id); err != nil {
		return fmt.Errorf("discover: remove tool %s: %w", id, err)
	}
	e.post.remove(id)
	e.vec.remove(id)
	e.enc.remove(id)
	e.stats.remove(old)
	e.regsum ^= old.sum
	delete(e.tools, id)
	return e.changed(change{id: id})
}

// The in-memory index adds a segment for every update and never merges
// them, so search slows as updates pile up (at 10k tools: about 2× after 64
// updates, 4× after 256). Compaction rebuilds the index as one segment in
// the background, from a snapshot of the tools, while searches and updates
// go on against the old one; updates made meanwhile are replayed onto the
// new index before it replaces the old.
type compaction struct {
	pending int // updates since the index was built
	running sync.WaitGroup
	active  bool     // a rebuild is running
	replay  []change // updates made since the running rebuild's snapshot
	err     error    // why the last rebuild failed, reported by the next update
	closed  bool
}

// change is one update: a put of en, or a removal when en is nil.
type change struct {
	id string
	en *entry
}

// changed records an update and starts a compaction when enough have piled
// up. Caller holds the write lock.
func (e *Engine) changed(c change) error {
	e.comp.pending++
	if e.comp.active {
		e.comp.replay = append(e.comp.replay, c)
	}
	err := e.comp.err
	e.comp.err = nil
	e.maybeCompact()
	if err != nil {
		return fmt.Errorf("discover: update applied, but compacting the index failed (retrying): %w", err)
	}
	return nil
}

// maybeCompact starts a rebuild if one is due. Caller holds the write lock.
func (e *Engine) maybeCompact() {
	if e.comp.active || e.comp.closed || e.comp.pending < e.cfg.compactAfter {
		return
	}
	e.comp.active = true
	snapshot := maps.Clone(e.tools) // entries are immutable; the map is not
	e.comp.running.Add(1)
	go func() {
		defer e.comp.running.Done()
		idx, err := buildIndex(e.mapping, snapshot)
		post := buildPostings(snapshot)
		e.mu.Lock()
		defer e.mu.Unlock()
		e.comp.active = false
		replay := e.comp.replay
		e.comp.replay = nil
		if err == nil && !e.comp.closed {
			err = applyChanges(idx, post, replay)
		}
		if err != nil || e.comp.closed {
			if idx != nil {
				_ = idx.Close()
			}
			e.comp.err = err
			return
		}
		old := e.idx
		e.idx, e.post = idx, post
		e.comp.pending = len(replay)
		if cerr := old.Close(); cerr != nil {
			e.comp.err = fmt.Errorf("close replaced index: %w", cerr)
		}
		e.maybeCompact()
	}()
}

func applyChanges(idx bleve.Index, post *postings, cs []change) error {
	for _, c := range cs {
		var err error
		if c.en == nil {
			err = idx.Delete(c.id)
			post.remove(c.id)
		} else {
			err = idx.Index(c.id, c.en.doc)
			post.put(c.en)
		}
		if err != nil {
			return fmt.Errorf("replay update of tool %s: %w", c.id, err)
		}
	}
	return nil
}
