package embed

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/toolyard/toolyard/workers/discover/embed/internal/vecfile"
)

// algoVersion is part of every Local id: bump it whenever a change to
// tokenizing or weighting changes the vectors, so cached tool vectors made
// the old way are never mixed with new ones.
const algoVersion = 1

// Local embeds text offline with the word vectors compiled into the binary:
// a SIF sentence vector (Arora et al. 2017) — each known word's vector
// weighted a/(a+p(w)), summed, with the common components removed —
// whitened and unit-normalized. Words the vocabulary lacks are split into
// known sub-words or built from hashed character n-grams (oov.go).
//
// A text with nothing to embed gives the zero vector, which is similar to
// nothing. Local is safe for concurrent use.
type Local struct {
	cfg     localConfig
	m       *model
	vocab   int
	weights []float32 // per row: SIF weight × quantization scale
	oovW    float32   // SIF weight of a word built from n-grams
	common  [][]float32
	white   []float32 // d×d, or nil
	id      string
	pool    sync.Pool
}

// NewLocal returns the local embedder. It loads the vectors on the first
// call in the process (tens of milliseconds); an error wrapping
// ErrUnavailable means this build has no usable vectors.
func NewLocal(opts ...LocalOption) (*Local, error) {
	cfg := defaultLocalConfig()
	for _, o := range opts {
		o(&cfg)
	}
	var m *model
	var err error
	if cfg.data != nil {
		if m, err = newModel(cfg.data); err != nil {
			err = fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
	} else {
		m, err = embedded()
	}
	if err != nil {
		return nil, err
	}
	f := m.f
	if err := cfg.validate(int(f.Header.Common)); err != nil {
		return nil, fmt.Errorf("local embedder: %w", err)
	}
	if cfg.sifA == 0 {
		cfg.sifA = float64(f.SIFA)
	}
	l := &Local{cfg: cfg, m: m, vocab: int(f.Words)}
	if cfg.vocab > 0 {
		l.vocab = min(l.vocab, cfg.vocab)
	}
	l.weights = make([]float32, l.vocab)
	for i := range l.weights {
		l.weights[i] = float32(l.sif(f.Ranks[i])) * f.Scales[i]
	}
	l.oovW = float32(cfg.ngramWeight * l.sif(f.SourceVocab))
	d := int(f.Dims)
	for i := range cfg.common {
		l.common = append(l.common, f.Common[i*d:(i+1)*d])
	}
	if cfg.whiten {
		l.white = l.whitening()
	}
	l.id = fmt.Sprintf("local:%s:v%d:vocab=%d,a=%g,cc=%d,ng=%g,sub=%t,wh=%t:%08x",
		f.Source, algoVersion, l.vocab, float32(cfg.sifA), cfg.common, cfg.ngramWeight, cfg.subwords, cfg.whiten, f.CRC)
	l.pool.New = func() any { return &scratch{acc: make([]float32, d)} }
	return l, nil
}

// whitening returns the file's whitening matrix when it was made for
// these settings, else computes it from the vocabulary the same way.
func (l *Local) whitening() []float32 {
	f := l.m.f
	if f.Whiten == 1 && float32(l.cfg.sifA) == f.SIFA && l.cfg.common == int(f.WhitenCC) && l.vocab == int(f.Words) {
		return f.White
	}
	d := l.m.dims
	row := func(i int, dst []float64) {
		w := float64(l.weights[i])
		for k, b := range f.Vectors[i*d : (i+1)*d] {
			dst[k] = w * float64(int8(b))
		}
	}
	p := func(i int) float64 { return vecfile.Prob(f.Ranks[i], f.SourceVocab, f.ZipfQ) }
	return vecfile.Whitening(vecfile.Moment(d, l.vocab, row, p, vecfile.PseudoSentence, l.common), d)
}

// sif is the weight a/(a+p) of a word of the given frequency rank.
func (l *Local) sif(rank uint32) float64 {
	f := l.m.f
	return l.cfg.sifA / (l.cfg.sifA + vecfile.Prob(rank, f.SourceVocab, f.ZipfQ))
}

// ID names the vectors this embedder makes: the source, the algorithm
// version, every setting and the vector file's checksum. Vectors with
// different ids must never be compared.
func (l *Local) ID() string { return l.id }

// Dimensions is the length of every vector.
func (l *Local) Dimensions() int { return l.m.dims }

// EmbedQuery embeds one text.
func (l *Local) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]float32, l.m.dims)
	sc := l.pool.Get().(*scratch)
	l.embed(text, out, sc)
	l.pool.Put(sc)
	return out, nil
}

// EmbedDocuments embeds each text; the vectors share one allocation.
func (l *Local) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	d := l.m.dims
	block := make([]float32, len(texts)*d)
	out := make([][]float32, len(texts))
	sc := l.pool.Get().(*scratch)
	defer l.pool.Put(sc)
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = block[i*d : (i+1)*d : (i+1)*d]
		l.embed(t, out[i], sc)
	}
	return out, nil
}

// scratch is the per-call working memory, pooled so embedding allocates
// nothing but its result.
type scratch struct {
	acc     []float32
	low     []byte
	part    []byte
	ends    []int
	buckets []uint32
}

// embed writes the vector of text into out.
func (l *Local) embed(text string, out []float32, sc *scratch) {
	acc := sc.acc
	clear(acc)
	for i := 0; ; {
		start, end := nextRun(text, i)
		if start < 0 {
			break
		}
		i = end
		run := text[start:end]
		sc.low = appendLower(sc.low[:0], run)
		if l.addKnown(acc, sc.low) {
			continue
		}
		sc.ends = caseSplit(run, sc.ends[:0])
		if len(sc.ends) == 1 {
			l.addPiece(acc, sc.low, sc)
			continue
		}
		from := 0
		for _, to := range sc.ends {
			sc.part = appendLower(sc.part[:0], run[from:to])
			l.addPiece(acc, sc.part, sc)
			from = to
		}
	}
	for _, u := range l.common {
		var s float32
		for k, x := range acc {
			s += x * u[k]
		}
		for k := range acc {
			acc[k] -= s * u[k]
		}
	}
	if l.white != nil {
		d := len(acc)
		for r := range out {
			var s float32
			for k, x := range l.white[r*d : (r+1)*d] {
				s += x * acc[k]
			}
			out[r] = s
		}
	} else {
		copy(out, acc)
	}
	var norm float64
	for _, x := range out {
		norm += float64(x) * float64(x)
	}
	if norm < 1e-20 {
		clear(out)
		return
	}
	inv := float32(1 / math.Sqrt(norm))
	for k := range out {
		out[k] *= inv
	}
}

// row returns the vocabulary row of a lowercased word, or -1.
func (l *Local) row(w []byte) int {
	r := l.m.lookup(w)
	if r >= l.vocab {
		return -1
	}
	return r
}

// addKnown adds w's vector if w is in the vocabulary.
func (l *Local) addKnown(acc []float32, w []byte) bool {
	r := l.row(w)
	if r < 0 {
		return false
	}
	l.addRow(acc, r)
	return true
}

func (l *Local) addRow(acc []float32, r int) {
	d := len(acc)
	w := l.weights[r]
	vec := l.m.f.Vectors[r*d : (r+1)*d]
	for k, b := range vec {
		acc[k] += w * float32(int8(b))
	}
}

// addPiece adds one lowercased camelCase part: known, or bare digits
// (dropped: a count or a year says nothing about which tool), or letters
// and digits mixed (each letter run on its own: ipv6 is known, utf8x is
// not), or unknown.
func (l *Local) addPiece(acc []float32, w []byte, sc *scratch) {
	if l.addKnown(acc, w) {
		return
	}
	digits := 0
	for _, c := range w {
		if isDigit(c) {
			digits++
		}
	}
	switch {
	case digits == len(w):
		return
	case digits == 0:
		l.addUnknown(acc, w, sc)
		return
	}
	for i := 0; i < len(w); {
		if isDigit(w[i]) {
			i++
			continue
		}
		j := i
		for j < len(w) && !isDigit(w[j]) {
			j++
		}
		if !l.addKnown(acc, w[i:j]) {
			l.addUnknown(acc, w[i:j], sc)
		}
		i = j
	}
}
