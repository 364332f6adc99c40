package predict

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/route"
)

// Lookup answers real intents from the prefetch bucket, for the discover
// stage: a miss costs one KV get and the match rule.
type Lookup struct {
	store *Store
	vec   Vectorizer
	rule  Rule
	th    func() route.Thresholds
	wait  time.Duration
	log   *slog.Logger
}

// NewLookup returns a Lookup over store with the match rule, waiting at
// most wait for a matching search still running (0: never waits), and
// judging hits with the thresholds th returns (the live ones).
func NewLookup(store *Store, vec Vectorizer, rule Rule, th func() route.Thresholds, wait time.Duration, log *slog.Logger) *Lookup {
	if log == nil {
		log = slog.Default()
	}
	return &Lookup{store: store, vec: vec, rule: rule, th: th, wait: wait, log: log}
}

// Lookup returns the candidates of the prefetched search that matches the
// intent, and whether there is one.
func (l *Lookup) Lookup(ctx context.Context, in schemas.Intent, registry, model string) ([]schemas.Candidate, bool) {
	slot, _, err := l.store.Get(ctx, in.SessionID)
	if err != nil {
		l.log.Debug("prefetch lookup failed: a miss", "session", in.SessionID, "err", err)
		Lookups.WithLabelValues("miss").Inc()
		return nil, false
	}
	k, _ := Match(in.Text, slot.Entries, registry, model, l.vec, l.rule)
	if k < 0 {
		Lookups.WithLabelValues("miss").Inc()
		return nil, false
	}
	e := slot.Entries[k]
	if e.Pending {
		var ok bool
		if e, ok = l.await(ctx, in.SessionID, e); !ok {
			Lookups.WithLabelValues("miss").Inc()
			return nil, false
		}
	}
	Lookups.WithLabelValues("hit").Inc()
	return slices.Clone(e.Candidates), true
}

// await waits for a pending entry's search to end, at most l.wait.
func (l *Lookup) await(ctx context.Context, session string, pending Entry) (Entry, bool) {
	if l.wait <= 0 {
		return Entry{}, false
	}
	ctx, cancel := context.WithTimeout(ctx, l.wait)
	defer cancel()
	w, err := l.store.Watch(ctx, session)
	if err != nil {
		return Entry{}, false
	}
	defer w.Stop()
	done := func(slot Slot) (Entry, bool) {
		for _, e := range slot.Entries {
			if e.TextSum == pending.TextSum && e.Registry == pending.Registry && e.Model == pending.Model && !e.Pending {
				return e, true
			}
		}
		return Entry{}, false
	}
	// The search may have ended between the get and the watch.
	if slot, _, err := l.store.Get(ctx, session); err == nil {
		if e, ok := done(slot); ok {
			return e, true
		}
	}
	for {
		select {
		case <-ctx.Done():
			return Entry{}, false
		case kv, open := <-w.Updates():
			if !open {
				return Entry{}, false
			}
			if kv == nil {
				continue
			}
			var slot Slot
			if json.Unmarshal(kv.Value(), &slot) != nil {
				continue
			}
			if e, ok := done(slot); ok {
				return e, true
			}
		}
	}
}

// Verify judges a hit against the fresh search of the same intent, which
// took freshTook: a wrong hit is counted and logged.
func (l *Lookup) Verify(in schemas.Intent, prefetched, fresh []schemas.Candidate, freshTook, lookupTook time.Duration) {
	CheckedHits.Inc()
	SavedSeconds.Add(max(0, (freshTook - lookupTook).Seconds()))
	if Judge(prefetched, fresh, l.th()) {
		WrongHits.Inc()
		l.log.Warn("prefetch: wrong hit: a fresh search ranks another tool or tier first", "intent", in.ID, "session", in.SessionID)
	}
}
