package execute

import (
	"sync"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/registry/sign"
)

// serialMarks remembers, per tool id, the highest signature serial this
// worker has verified and the content it had. The registry refuses older
// signed versions at import; this catches one written to the tools bucket
// by any other way while the worker runs.
type serialMarks struct {
	mu   sync.Mutex
	seen map[string]serialMark
}

type serialMark struct {
	serial int64
	hash   string
}

// check refuses m if a higher serial was verified for its id before (or
// the same serial with other content), and raises the mark otherwise. m's
// signature has been verified.
func (s *serialMarks) check(m schemas.Manifest) error {
	serial, hash := sign.Serial(m), registry.ContentHash(m)
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.seen[m.ID]
	if err := sign.CheckNotOlder(m, cur.serial, hash == cur.hash); err != nil {
		return err
	}
	if serial > cur.serial {
		if s.seen == nil {
			s.seen = map[string]serialMark{}
		}
		s.seen[m.ID] = serialMark{serial: serial, hash: hash}
	}
	return nil
}
