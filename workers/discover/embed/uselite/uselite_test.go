package uselite

import (
	"encoding/json"
	"hash/crc32"
	"io/fs"
	"math"
	"os"
	"slices"
	"sync"
	"testing"
)

// modelDir is where `make embeddings` unpacks the model.
const modelDir = "../data/use"

var loadOnce = sync.OnceValues(func() (*Model, error) { return Load(os.DirFS(modelDir), ".") })

func model(t testing.TB) *Model {
	t.Helper()
	m, err := loadOnce()
	if err != nil {
		t.Fatalf("load %s (run `make embeddings`): %v", modelDir, err)
	}
	return m
}

type golden struct {
	Text   string    `json:"text"`
	IDs    []int     `json:"ids"`
	Vector []float64 `json:"vector"`
}

func goldens(t *testing.T) []golden {
	t.Helper()
	b, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var gs []golden
	if err := json.Unmarshal(b, &gs); err != nil {
		t.Fatal(err)
	}
	return gs
}

func TestTokenizerMatchesTensorFlowJS(t *testing.T) {
	m := model(t)
	for _, g := range goldens(t) {
		if got := m.Tokenizer().Encode(g.Text); !slices.Equal(got, g.IDs) {
			t.Errorf("Encode(%q)\n got %v\nwant %v", g.Text, got, g.IDs)
		}
	}
}

func TestEncodeMatchesTensorFlowJS(t *testing.T) {
	m := model(t)
	for _, g := range goldens(t) {
		got := m.Encode(g.Text)
		if len(got) != Dimensions {
			t.Fatalf("Encode(%q): %d dimensions, want %d", g.Text, len(got), Dimensions)
		}
		worst, dot := 0.0, 0.0
		for i, v := range got {
			worst = math.Max(worst, math.Abs(float64(v)-g.Vector[i]))
			dot += float64(v) * g.Vector[i]
		}
		if worst > 2e-4 || dot < 0.99999 {
			t.Errorf("Encode(%q): max difference %.2g, cosine %.7f to TensorFlow.js", g.Text, worst, dot)
		}
	}
}

func TestEncodeEmpty(t *testing.T) {
	m := model(t)
	for _, text := range []string{"", " "} {
		if v := m.Encode(text); text == "" && v != nil {
			t.Errorf("Encode(%q) = %d floats, want nil", text, len(v))
		}
	}
}

// BenchmarkEncode measures one typical request (21 pieces).
func BenchmarkEncode(b *testing.B) {
	m := model(b)
	const text = "I want to buy a new smartphone with a good camera. Any recommendations?"
	b.ReportMetric(float64(len(m.Tokenizer().Encode(text))), "pieces")
	for b.Loop() {
		m.Encode(text)
	}
}

func TestChecksumNamesTheBytes(t *testing.T) {
	m := model(t)
	files := os.DirFS(modelDir)
	shards, err := fs.Glob(files, "group1-shard*")
	if err != nil || len(shards) == 0 {
		t.Fatalf("shards: %v, %v", shards, err)
	}
	sum := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	for _, name := range append([]string{"vocab.json", "model.json"}, shards...) {
		b, err := fs.ReadFile(files, name)
		if err != nil {
			t.Fatal(err)
		}
		sum.Write(b)
	}
	if m.Checksum() != sum.Sum32() {
		t.Errorf("Checksum() = %08x, want %08x (CRC-32C of vocab.json, model.json and %d shards)", m.Checksum(), sum.Sum32(), len(shards))
	}
}
