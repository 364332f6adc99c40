package vecindex

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
)

// synth makes vectors shaped like sentence embeddings rather than uniform
// noise, which would flatter an approximate index: a shared mean direction
// (embeddings of one model all lean the same way), 64 broad subjects, a few
// thousand topics within them, and per-item noise whose variance decays
// across dimensions (a low intrinsic dimension, as real embeddings have).
type synth struct {
	dim    int
	r      *rand.Rand
	mean   []float64
	topics [][]float64
	sigma  []float64
}

const synthTopics = 4096

func newSynth(dim int, seed uint64) *synth {
	r := rand.New(rand.NewPCG(seed, 42))
	s := &synth{dim: dim, r: r, mean: scaled(unit(r, dim), 0.35)}
	subjects := make([][]float64, 64)
	for i := range subjects {
		subjects[i] = unit(r, dim)
	}
	s.topics = make([][]float64, synthTopics)
	for i := range s.topics {
		t := unit(r, dim)
		sub := subjects[r.IntN(len(subjects))]
		for j := range t {
			t[j] = 0.75*sub[j] + 0.65*t[j]
		}
		s.topics[i] = t
	}
	s.sigma = make([]float64, dim)
	// Total noise norm ≈ 0.6 whatever the dimension.
	var ss float64
	for j := range s.sigma {
		s.sigma[j] = math.Pow(float64(j+1), -0.3)
		ss += s.sigma[j] * s.sigma[j]
	}
	for j := range s.sigma {
		s.sigma[j] *= 0.6 / math.Sqrt(ss)
	}
	return s
}

func unit(r *rand.Rand, dim int) []float64 {
	v := make([]float64, dim)
	var ss float64
	for i := range v {
		v[i] = r.NormFloat64()
		ss += v[i] * v[i]
	}
	return scaled(v, 1/math.Sqrt(ss))
}

func scaled(v []float64, f float64) []float64 {
	for i := range v {
		v[i] *= f
	}
	return v
}

// vector writes one item into dst; noise scales the per-item spread
// (queries, which are short intents, are noisier than tool descriptions).
func (s *synth) vector(dst []float32, noise float64) {
	t := s.topics[s.r.IntN(len(s.topics))]
	for j := range dst {
		dst[j] = float32(s.mean[j] + t[j] + noise*s.sigma[j]*s.r.NormFloat64())
	}
	var ss float64
	for _, x := range dst {
		ss += float64(x) * float64(x)
	}
	inv := float32(1 / math.Sqrt(ss))
	for j := range dst {
		dst[j] *= inv
	}
}

// dataset is n items and nq held-out queries, flat.
type dataset struct {
	dim     int
	vecs    []float32
	queries []float32
}

func (d *dataset) n() int                { return len(d.vecs) / d.dim }
func (d *dataset) nq() int               { return len(d.queries) / d.dim }
func (d *dataset) vec(i int) []float32   { return d.vecs[i*d.dim : (i+1)*d.dim] }
func (d *dataset) query(i int) []float32 { return d.queries[i*d.dim : (i+1)*d.dim] }
func synthID(i int) string               { return fmt.Sprintf("tool-%07d", i) }
func (d *dataset) ids() []string         { return makeIDs(d.n()) }
func makeIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = synthID(i)
	}
	return ids
}

func makeDataset(n, nq, dim int, seed uint64) *dataset {
	s := newSynth(dim, seed)
	d := &dataset{dim: dim, vecs: make([]float32, n*dim), queries: make([]float32, nq*dim)}
	for i := range n {
		s.vector(d.vec(i), 1)
	}
	for i := range nq {
		s.vector(d.query(i), 1.2)
	}
	return d
}

var (
	datasetsMu sync.Mutex
	datasets   = map[[3]int]*dataset{}
)

// sharedDataset caches datasets across tests and benchmarks: making 1M
// vectors takes seconds, and b.N loops would otherwise remake them.
func sharedDataset(n, nq, dim int) *dataset {
	datasetsMu.Lock()
	defer datasetsMu.Unlock()
	key := [3]int{n, nq, dim}
	if d, ok := datasets[key]; ok {
		return d
	}
	d := makeDataset(n, nq, dim, uint64(n)^uint64(dim)<<32)
	datasets[key] = d
	return d
}

func itoa(i int) string { return fmt.Sprint(i) }
