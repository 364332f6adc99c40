package embed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/toolyard/toolyard/schemas"
)

// textVersion is part of every content hash: bump it when ToolText changes
// what it takes from a manifest, so cached vectors of the old text are
// never reused.
const textVersion = 1

// ContentHash is the hex SHA-256 of the canonical JSON of the manifest
// fields that ToolText reads (parameters re-encoded with sorted keys, so
// formatting and key order do not matter) plus the text version. Fields
// that do not change the embedded text (executor, permissions, version…)
// are left out, so editing them re-embeds nothing.
func ContentHash(m schemas.Manifest) string {
	params, err := canonicalJSON(m.Parameters)
	if err != nil {
		// Invalid JSON cannot be canonicalized; hashed as a string it is
		// still stable and still distinct.
		params, _ = json.Marshal(string(m.Parameters))
	}
	// Absent and empty lists embed alike, so they hash alike.
	b, _ := json.Marshal(struct {
		V           int             `json:"v"`
		ID          string          `json:"id"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Keywords    []string        `json:"keywords"`
		Parameters  json.RawMessage `json:"parameters,omitempty"`
		Examples    []string        `json:"examples"`
	}{textVersion, m.ID, m.Name, m.Description, nonEmpty(m.Keywords), params, nonEmpty(m.Examples)})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func nonEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func canonicalJSON(raw json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber() // keeps 1e400 and 0.10 from changing under a float64 round trip
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(v) // maps encode with sorted keys
}

// toolsConfig holds EmbedTools' settings.
type toolsConfig struct {
	batch int
	log   *slog.Logger
}

// ToolsOption configures EmbedTools.
type ToolsOption func(*toolsConfig)

// WithBatchSize sets how many cache misses go to the embedder per call
// (default 256).
func WithBatchSize(n int) ToolsOption { return func(c *toolsConfig) { c.batch = n } }

// WithLogger sets where cache failures are reported (default slog.Default()).
func WithLogger(l *slog.Logger) ToolsOption { return func(c *toolsConfig) { c.log = l } }

// EmbedTools returns the vector of each tool, in order, embedding only the
// ones the cache lacks and storing those. Tools with equal content are
// embedded once. cache may be nil. A failing cache is logged and worked
// around, never fatal: it only costs re-embedding. The vectors may be
// shared with the cache and with each other: treat them as read-only.
func EmbedTools(ctx context.Context, e Embedder, cache Cache, tools []schemas.Manifest, opts ...ToolsOption) ([][]float32, error) {
	cfg := toolsConfig{batch: 256, log: slog.Default()}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.batch < 1 {
		return nil, fmt.Errorf("embed tools: batch size must be ≥ 1, got %d", cfg.batch)
	}
	id := e.ID()
	out := make([][]float32, len(tools))
	keys := make([]Key, len(tools))
	// missing maps a content hash to the tools that need its vector.
	missing := map[string][]int{}
	var order []string // content hashes to embed, in first-seen order
	for i, m := range tools {
		keys[i] = Key{Embedder: id, Content: ContentHash(m)}
		if cache != nil {
			v, ok, err := cache.Get(ctx, keys[i])
			if err != nil {
				cfg.log.Warn("embed: vector cache read failed; embedding instead", "tool", m.ID, "key", keys[i].String(), "err", err)
			} else if ok {
				out[i] = v
				continue
			}
		}
		h := keys[i].Content
		if _, seen := missing[h]; !seen {
			order = append(order, h)
		}
		missing[h] = append(missing[h], i)
	}
	text := ToolText
	if t, ok := e.(ToolTexter); ok {
		text = t.ToolText
	}
	for start := 0; start < len(order); start += cfg.batch {
		batch := order[start:min(start+cfg.batch, len(order))]
		texts := make([]string, len(batch))
		for k, h := range batch {
			texts[k] = text(tools[missing[h][0]])
		}
		vs, err := e.EmbedDocuments(ctx, texts)
		if err != nil {
			return nil, fmt.Errorf("embed tools %d–%d of %d with %s: %w", start, start+len(batch)-1, len(order), id, err)
		}
		if len(vs) != len(batch) {
			return nil, fmt.Errorf("embed tools with %s: %d vectors for %d texts", id, len(vs), len(batch))
		}
		for k, h := range batch {
			idx := missing[h]
			for _, i := range idx {
				out[i] = vs[k]
			}
			if cache != nil {
				if err := cache.Put(ctx, keys[idx[0]], vs[k]); err != nil {
					cfg.log.Warn("embed: vector cache write failed", "tool", tools[idx[0]].ID, "key", keys[idx[0]].String(), "err", err)
				}
			}
		}
	}
	return out, nil
}
