package discover

// Unmatched returns the words of text that describe the wanted tool and that
// no indexed tool contains in any field, once each, in the order they first
// appear (as written, lower-cased). Values (quoted text, paths, key=value
// values, numbers) and stop words are left out: they are not evidence that
// the registry lacks something. A not-found answer names these words so the
// agent knows what to rephrase.
func (e *Engine) Unmatched(text string) []string {
	q := e.parse(text)
	e.mu.RLock()
	defer e.mu.RUnlock()
	q = e.withCompounds(q)
	var out []string
	for _, t := range q.describing {
		if e.stats.df[t] > 0 {
			continue
		}
		w := q.surface[t]
		if w == "" {
			w = t
		}
		out = append(out, w)
	}
	return out
}
