package vecindex

import (
	"fmt"
	"sync"
)

// Auto is exact while small and a graph once large: it starts as an Exact
// index, and when a Put takes it to the threshold it builds an HNSW graph
// from a snapshot in the background, keeps answering from the exact index
// meanwhile, replays the writes made during the build into the graph and
// then switches. It switches back to exact if removals bring it under half
// the threshold (the gap keeps it from flapping), and rebuilds the graph
// in the background when tombstones outnumber live nodes. A search that
// began just before a switch answers from the index it began on.
type Auto struct {
	dim       int
	threshold int
	opts      []Option

	// wmu serialises writers, so the writes logged during a build replay
	// in the order they were applied. It also guards the fields below mu.
	wmu sync.Mutex
	// mu guards active, which searches read without waiting for writers.
	mu     sync.RWMutex
	active Index

	building bool
	pending  []pendingOp
	done     chan struct{} // closed when the running build has switched
}

// pendingOp is a write made while a build ran; vec is nil for a removal.
type pendingOp struct {
	id  string
	vec []float32
}

// catchUpMax is how many logged writes a finished build replays while
// writers wait; a longer log is replayed with writers still running.
const catchUpMax = 256

// NewAuto returns an empty index that switches to HNSW at threshold
// vectors (a threshold below 1 means the default, 100k). opts configure
// both indexes and the build (WithWorkers).
func NewAuto(dim, threshold int, opts ...Option) (*Auto, error) {
	if threshold < 1 {
		threshold = defaultThreshold
	}
	exact, err := NewExact(dim, opts...)
	if err != nil {
		return nil, fmt.Errorf("new auto index: %w", err)
	}
	return &Auto{dim: dim, threshold: threshold, opts: opts, active: exact}, nil
}

// Dim is the vector dimension.
func (a *Auto) Dim() int { return a.dim }

// Len is the number of stored vectors.
func (a *Auto) Len() int { return a.current().Len() }

// Approximate reports whether searches are answered by the graph.
func (a *Auto) Approximate() bool {
	_, ok := a.current().(*HNSW)
	return ok
}

// Search answers from whichever index is active.
func (a *Auto) Search(query []float32, k int, f Filter) ([]Hit, error) {
	return a.current().Search(query, k, f)
}

func (a *Auto) current() Index {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.active
}

// Put stores vec under id, replacing any previous vector.
func (a *Auto) Put(id string, vec []float32) error {
	a.wmu.Lock()
	defer a.wmu.Unlock()
	if err := a.active.Put(id, vec); err != nil {
		return err
	}
	if a.building {
		a.pending = append(a.pending, pendingOp{id: id, vec: append([]float32(nil), vec...)})
	}
	a.adapt()
	return nil
}

// Remove deletes id, reporting whether it was stored.
func (a *Auto) Remove(id string) bool {
	a.wmu.Lock()
	defer a.wmu.Unlock()
	if !a.active.Remove(id) {
		return false
	}
	if a.building {
		a.pending = append(a.pending, pendingOp{id: id})
	}
	a.adapt()
	return true
}

// Wait blocks until a background build in progress has switched indexes,
// for callers that need to know which index answers (tests, benchmarks,
// a readiness probe).
func (a *Auto) Wait() {
	a.wmu.Lock()
	done := a.done
	a.wmu.Unlock()
	if done != nil {
		<-done
	}
}

func (a *Auto) setActive(idx Index) {
	a.mu.Lock()
	a.active = idx
	a.mu.Unlock()
}
