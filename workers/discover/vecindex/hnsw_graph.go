package vecindex

import "sync"

// noSlot marks "no node" where a slot is expected.
const noSlot = ^uint32(0)

// maxLevel caps level draws. With M=16 a node reaches level 6 once in 16^6
// (17M) draws, so the cap only guards against a pathological generator.
const maxLevel = 15

// graph is the storage of an HNSW index: flat slabs indexed by a node's
// slot, so that 1M nodes are a handful of large allocations the garbage
// collector never has to scan, instead of millions of small ones.
type graph struct {
	dim, m, m0 int

	vecs   []float32 // slot*dim: unit vectors
	ids    []string  // "" for a removed node
	dead   []bool    // removed: still a waypoint, never a result
	levels []uint8

	// links0 holds every node's layer-0 list at slot*(m0+1): a count, then
	// up to m0 neighbour slots. Upper layers hold few nodes (1 in M at
	// layer 1), so their lists live in upper at upperOff[slot], one list of
	// m+1 per level above 0.
	links0   []uint32
	upperOff []uint32
	upper    []uint32

	entry    uint32
	maxLevel int // -1 while the graph is empty

	// locks guard link lists while a batch links nodes from several
	// goroutines; nil otherwise, when the index's RWMutex is enough.
	locks []sync.Mutex
}

func newGraph(dim, m int) graph {
	return graph{dim: dim, m: m, m0: 2 * m, maxLevel: -1}
}

func (g *graph) slots() int { return len(g.ids) }

func (g *graph) vec(s uint32) []float32 {
	i := int(s) * g.dim
	return g.vecs[i : i+g.dim : i+g.dim]
}

// list is the link list of s at level: element 0 counts the links that
// follow it.
func (g *graph) list(s uint32, level int) []uint32 {
	if level == 0 {
		i := int(s) * (g.m0 + 1)
		return g.links0[i : i+g.m0+1 : i+g.m0+1]
	}
	i := int(g.upperOff[s]) + (level-1)*(g.m+1)
	return g.upper[i : i+g.m+1 : i+g.m+1]
}

// neighbors returns the links of s at level. While a batch runs, lists
// change under other goroutines, so it copies into buf under the node's
// lock; otherwise it returns the stored list itself.
func (g *graph) neighbors(s uint32, level int, buf *[]uint32) []uint32 {
	l := g.list(s, level)
	if g.locks == nil {
		return l[1 : 1+l[0]]
	}
	g.locks[s].Lock()
	*buf = append((*buf)[:0], l[1:1+l[0]]...)
	g.locks[s].Unlock()
	return *buf
}

func (g *graph) lock(s uint32) {
	if g.locks != nil {
		g.locks[s].Lock()
	}
}

func (g *graph) unlock(s uint32) {
	if g.locks != nil {
		g.locks[s].Unlock()
	}
}

// addSlot appends an unlinked node; its vector is zero until the caller
// copies one in.
func (g *graph) addSlot(id string, level int) uint32 {
	s := uint32(len(g.ids))
	g.ids = append(g.ids, id)
	g.dead = append(g.dead, false)
	g.levels = append(g.levels, uint8(level))
	g.vecs = append(g.vecs, make([]float32, g.dim)...)
	g.links0 = append(g.links0, make([]uint32, g.m0+1)...)
	off := uint32(0)
	if level > 0 {
		off = uint32(len(g.upper))
		g.upper = append(g.upper, make([]uint32, level*(g.m+1))...)
	}
	g.upperOff = append(g.upperOff, off)
	return s
}

// grow reserves room for n more nodes, so that a batch does not copy the
// slabs over and over while it appends.
func (g *graph) grow(n int) {
	g.ids = growCap(g.ids, n)
	g.dead = growCap(g.dead, n)
	g.levels = growCap(g.levels, n)
	g.vecs = growCap(g.vecs, n*g.dim)
	g.links0 = growCap(g.links0, n*(g.m0+1))
	g.upperOff = growCap(g.upperOff, n)
}

// growCap returns s with room for n more elements and an eighth to spare:
// exactly n would leave a loaded graph full, and the first single Put
// after a batch load would copy every slab (half a second at a million
// vectors).
func growCap[T any](s []T, n int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	out := make([]T, len(s), len(s)+n+(len(s)+n)/8)
	copy(out, s)
	return out
}

// clearLinks empties every list of s, before s is linked again.
func (g *graph) clearLinks(s uint32) {
	for l := 0; l <= int(g.levels[s]); l++ {
		g.list(s, l)[0] = 0
	}
}

// highestOther returns the node other than s with the most levels, or
// noSlot. It is O(n), run only when the entry point itself is re-linked.
func (g *graph) highestOther(s uint32) uint32 {
	best, bestLevel := noSlot, -1
	for i, l := range g.levels {
		if uint32(i) != s && int(l) > bestLevel {
			best, bestLevel = uint32(i), int(l)
		}
	}
	return best
}
