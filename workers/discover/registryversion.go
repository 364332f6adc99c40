package discover

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"

	"github.com/toolyard/toolyard/schemas"
)

// manifestSum fingerprints a manifest: its JSON encoding's FNV-1a hash.
func manifestSum(m schemas.Manifest) uint64 {
	b, err := json.Marshal(m)
	if err != nil {
		// A manifest that cannot be encoded still gets a fingerprint of
		// its id: it changes the version when the tool comes or goes.
		b = []byte(m.ID)
	}
	h := fnv.New64a()
	h.Write(b)
	return binary.LittleEndian.Uint64(h.Sum(nil)) // any fixed order will do
}

// RegistryVersion names the set of tools the engine searches: two engines
// with the same tools, in whatever order they were added, have the same
// version, and any put or removal changes it. A prefetched search answers
// an intent only when it was made against the same version
// (workers/predict), since a new tool may rank first.
func (e *Engine) RegistryVersion() string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return fmt.Sprintf("%016x.%d", e.regsum, len(e.tools))
}
