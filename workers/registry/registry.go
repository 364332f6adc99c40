// Package registry holds the tool manifests a worker knows, loaded from a
// registry file (JSONL or a JSON array of manifests, the contract in DESIGN.md).
package registry

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/toolyard/toolyard/schemas"
)

// Registry is a concurrency-safe set of manifests keyed by tool id.
type Registry struct {
	mu    sync.RWMutex
	tools map[string]schemas.Manifest
	// secretNames counts, per parameter name, the tools whose schema marks
	// a top-level property of that name secret (see SecretParam).
	secretNames map[string]int
	// gen counts changes, so what is derived from manifests can be cached
	// until the next one (see Generation).
	gen atomic.Uint64
}

// New returns a registry holding the given manifests.
func New(ms ...schemas.Manifest) *Registry {
	r := &Registry{tools: make(map[string]schemas.Manifest, len(ms)), secretNames: map[string]int{}}
	for _, m := range ms {
		r.put(m)
	}
	return r
}

// Get returns the manifest of a tool.
func (r *Registry) Get(id string) (schemas.Manifest, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	m, ok := r.tools[id]
	return m, ok
}

// Put adds or replaces a manifest.
func (r *Registry) Put(m schemas.Manifest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.put(m)
}

func (r *Registry) put(m schemas.Manifest) {
	if old, ok := r.tools[m.ID]; ok {
		r.countSecrets(old, -1)
	}
	r.tools[m.ID] = m
	r.countSecrets(m, 1)
	r.gen.Add(1)
}

// Remove deletes a tool; it reports whether the tool was there.
func (r *Registry) Remove(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	old, ok := r.tools[id]
	if ok {
		r.countSecrets(old, -1)
	}
	delete(r.tools, id)
	if ok {
		r.gen.Add(1)
	}
	return ok
}

// Generation changes whenever a manifest is added, replaced or removed. A
// value built from manifests after reading Generation is current for as
// long as Generation returns the same number.
func (r *Registry) Generation() uint64 {
	return r.gen.Load()
}

// Len is the number of tools.
func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.tools)
}

// All returns every manifest, sorted by id.
func (r *Registry) All() []schemas.Manifest {
	r.mu.RLock()
	out := make([]schemas.Manifest, 0, len(r.tools))
	for _, m := range r.tools {
		out = append(out, m)
	}
	r.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// LoadFile reads a registry file.
func LoadFile(path string) ([]schemas.Manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open registry: %w", err)
	}
	defer f.Close()
	ms, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("registry %s: %w", path, err)
	}
	return ms, nil
}

// Read parses manifests from JSONL or a JSON array, validating each one. It
// refuses the whole input on the first invalid manifest or duplicate id, naming
// the line (or array position) and the reason, so a registry is never half-loaded.
func Read(r io.Reader) ([]schemas.Manifest, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	first, err := firstNonSpace(br)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	var raws []json.RawMessage
	var where func(i int) string
	if first == '[' {
		if err := json.NewDecoder(br).Decode(&raws); err != nil {
			return nil, fmt.Errorf("JSON array: %w", err)
		}
		where = func(i int) string { return fmt.Sprintf("element %d", i) }
	} else {
		var lines []int
		sc := bufio.NewScanner(br)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for n := 1; sc.Scan(); n++ {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			raws = append(raws, append(json.RawMessage(nil), line...))
			lines = append(lines, n)
		}
		if err := sc.Err(); err != nil {
			return nil, err
		}
		where = func(i int) string { return fmt.Sprintf("line %d", lines[i]) }
	}
	seen := make(map[string]string, len(raws))
	out := make([]schemas.Manifest, 0, len(raws))
	for i, raw := range raws {
		m, err := schemas.ValidateManifest(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where(i), err)
		}
		if prev, dup := seen[m.ID]; dup {
			return nil, fmt.Errorf("%s: tool id %q already defined at %s", where(i), m.ID, prev)
		}
		seen[m.ID] = where(i)
		out = append(out, m)
	}
	return out, nil
}

func firstNonSpace(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.ReadByte()
		if err != nil {
			return 0, err
		}
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return b, br.UnreadByte()
	}
}

// Namespace puts manifests under a namespace: ids become ns/id (ids already
// under it are kept) and the server defaults to ns.
func Namespace(ms []schemas.Manifest, ns string) []schemas.Manifest {
	out := make([]schemas.Manifest, len(ms))
	prefix := strings.TrimSuffix(ns, "/") + "/"
	for i, m := range ms {
		if !strings.HasPrefix(m.ID, prefix) {
			m.ID = prefix + m.ID
		}
		if m.Server == "" {
			m.Server = strings.TrimSuffix(ns, "/")
		}
		out[i] = m
	}
	return out
}
