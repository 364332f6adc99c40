package embed

import (
	"context"
	"testing"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
)

// lengthEmbedder is a fake embedder that counts the texts it embeds: the
// cache is under test, not the vectors.
type lengthEmbedder struct{ n int }

func (c *lengthEmbedder) EmbedDocuments(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range texts {
		c.n++
		out[i] = []float32{1, 0, float32(len(texts[i]))}
	}
	return out, nil
}
func (c *lengthEmbedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	v, err := c.EmbedDocuments(ctx, []string{text})
	return v[0], err
}
func (c *lengthEmbedder) ID() string { return "counting:v1" }

// Two workers share the vector bucket: the second embeds nothing the first
// already did, and a changed tool is embedded again.
func TestKVCacheSharedByWorkersWithFakeEmbedder(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx := context.Background()
	tools := []schemas.Manifest{
		{ID: "a", Name: "a", Description: "first tool"},
		{ID: "b", Name: "b", Description: "second tool"},
	}
	first, err := OpenKVCache(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	e1 := &lengthEmbedder{}
	v1, err := EmbedTools(ctx, e1, first, tools)
	if err != nil || e1.n != 2 {
		t.Fatalf("first worker embedded %d, err %v", e1.n, err)
	}
	second, err := OpenKVCache(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := second.Preload(ctx, e1.ID()); err != nil || n != 2 {
		t.Fatalf("preloaded %d vectors, err %v", n, err)
	}
	e2 := &lengthEmbedder{}
	tools[1].Description = "second tool, changed"
	v2, err := EmbedTools(ctx, e2, second, tools)
	if err != nil {
		t.Fatal(err)
	}
	if e2.n != 1 {
		t.Fatalf("second worker embedded %d tools, want only the changed one", e2.n)
	}
	if v2[0][2] != v1[0][2] {
		t.Fatal("cached vector differs from the stored one")
	}
}
