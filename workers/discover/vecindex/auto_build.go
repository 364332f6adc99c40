package vecindex

// adapt starts a build or switches back to exact when the size calls for
// it; the caller holds wmu.
func (a *Auto) adapt() {
	if a.building {
		return
	}
	switch idx := a.active.(type) {
	case *Exact:
		if idx.Len() >= a.threshold {
			ids, vecs := idx.snapshot()
			a.startBuild(ids, vecs)
		}
	case *HNSW:
		idx.mu.RLock()
		live, dead := len(idx.slotOf), len(idx.free)
		idx.mu.RUnlock()
		switch {
		case live < a.threshold/2:
			// Small again: a scan is exact and now fast, and copying
			// at most threshold/2 vectors takes milliseconds.
			a.setActive(exactFrom(idx, a.opts))
		case dead > live:
			ids, vecs := idx.snapshot()
			a.startBuild(ids, vecs)
		}
	}
}

// startBuild builds a graph from the snapshot in the background; the
// caller holds wmu.
func (a *Auto) startBuild(ids []string, vecs []float32) {
	a.building = true
	a.pending = nil
	done := make(chan struct{})
	a.done = done
	go func() {
		defer close(done)
		// opts were validated by NewAuto, so this cannot fail.
		h, _ := NewHNSW(a.dim, a.opts...)
		h.mu.Lock()
		h.putBatch(ids, vecs)
		h.mu.Unlock()
		a.catchUp(h)
	}()
}

// catchUp replays the writes made during the build into h, then makes h
// active. Long logs are replayed while writers go on adding to the log;
// the last few with writers held off, so nothing is missed.
func (a *Auto) catchUp(h *HNSW) {
	for {
		a.wmu.Lock()
		ops := a.pending
		a.pending = nil
		if len(ops) <= catchUpMax {
			replay(h, ops)
			a.setActive(h)
			a.building = false
			a.done = nil
			a.adapt()
			a.wmu.Unlock()
			return
		}
		a.wmu.Unlock()
		replay(h, ops)
	}
}

func replay(h *HNSW, ops []pendingOp) {
	for _, op := range ops {
		if op.vec == nil {
			h.Remove(op.id)
			continue
		}
		// The active index accepted this vector, so it is valid here too.
		_ = h.Put(op.id, op.vec)
	}
}

// snapshot copies the live ids and vectors.
func (h *HNSW) snapshot() (ids []string, vecs []float32) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	ids = make([]string, 0, len(h.slotOf))
	vecs = make([]float32, 0, len(h.slotOf)*h.dim)
	h.forEachLive(func(id string, v []float32) {
		ids = append(ids, id)
		vecs = append(vecs, v...)
	})
	return ids, vecs
}

// exactFrom copies h's live vectors into a new exact index.
func exactFrom(h *HNSW, opts []Option) *Exact {
	e, _ := NewExact(h.dim, opts...)
	e.ids, e.vecs = h.snapshot()
	for i, id := range e.ids {
		e.slotOf[id] = uint32(i)
	}
	return e
}
