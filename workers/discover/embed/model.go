package embed

import (
	"fmt"
	"hash/maphash"

	"github.com/toolyard/toolyard/workers/discover/embed/internal/vecfile"
)

// model is a parsed vector file plus the hash table that finds a word's
// row without allocating: open addressing over the word blob, which the
// file already holds, instead of a map[string]int of 100k strings.
type model struct {
	f     *vecfile.File
	dims  int
	seed  maphash.Seed
	table []uint32 // word index + 1; 0 is an empty slot
	mask  uint32
}

func newModel(b []byte) (*model, error) {
	f, err := vecfile.Parse(b)
	if err != nil {
		return nil, err
	}
	m := &model{f: f, dims: int(f.Dims), seed: maphash.MakeSeed()}
	size := uint32(1)
	for size < 2*f.Words {
		size <<= 1
	}
	m.table, m.mask = make([]uint32, size), size-1
	for i := range int(f.Words) {
		w := f.Word(i)
		slot := uint32(maphash.String(m.seed, w)) & m.mask
		for m.table[slot] != 0 {
			if f.Word(int(m.table[slot]-1)) == w {
				return nil, fmt.Errorf("%w: word %q stored twice", vecfile.ErrFormat, w)
			}
			slot = (slot + 1) & m.mask
		}
		m.table[slot] = uint32(i + 1)
	}
	return m, nil
}

// lookup returns the row of w, or -1.
func (m *model) lookup(w []byte) int {
	slot := uint32(maphash.Bytes(m.seed, w)) & m.mask
	for {
		e := m.table[slot]
		if e == 0 {
			return -1
		}
		if m.f.Word(int(e-1)) == string(w) {
			return int(e - 1)
		}
		slot = (slot + 1) & m.mask
	}
}
