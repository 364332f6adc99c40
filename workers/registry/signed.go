package registry

import (
	"bytes"
	"encoding/json"

	"github.com/toolyard/toolyard/schemas"
)

// signedCopyOf reports whether the stored manifest is m with a signature
// added: an importer that syncs again (MCP, NATS) or a file imported again
// without signatures must not strip the signature an operator added to an
// unchanged tool. A changed tool is written, and loses it.
func signedCopyOf(stored []byte, m schemas.Manifest) bool {
	if m.Signature != nil {
		return false
	}
	var cur schemas.Manifest
	if err := json.Unmarshal(stored, &cur); err != nil || cur.Signature == nil {
		return false
	}
	cur.Signature = nil
	a, err := canonical(cur)
	if err != nil {
		return false
	}
	b, err := canonical(m)
	return err == nil && bytes.Equal(a, b)
}
