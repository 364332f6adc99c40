package sign

import (
	"errors"
	"fmt"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// ErrDowngrade: a signed manifest is older (a lower serial) than one
// already seen for the same tool id, or has the same serial with other
// content: a replay of an old signed version.
var ErrDowngrade = errors.New("older signed version")

// Option configures Sign.
type Option func(*options)

type options struct{ fixed int64 }

// WithSerial sets the signature's serial (it must be positive). By default
// it is the signing time in Unix milliseconds, or one more than the
// serial of the signature being replaced if that is higher, so serials
// grow with every signing of a tool.
func WithSerial(n int64) Option { return func(o *options) { o.fixed = n } }

func (o options) serial(m schemas.Manifest) int64 {
	if o.fixed > 0 {
		return o.fixed
	}
	n := time.Now().UnixMilli()
	if m.Signature != nil && m.Signature.Serial >= n {
		n = m.Signature.Serial + 1
	}
	return n
}

// Serial is m's signature serial, 0 when unsigned (or signed before
// serials existed).
func Serial(m schemas.Manifest) int64 {
	if m.Signature == nil {
		return 0
	}
	return m.Signature.Serial
}

// CheckNotOlder refuses next when it would replace a signed manifest with
// an older signed one: next's serial must be at least highest, the highest
// serial seen for the tool id. sameContent says whether next is the very
// manifest that carried highest (a re-import), which is allowed at equal
// serials.
func CheckNotOlder(next schemas.Manifest, highest int64, sameContent bool) error {
	if next.Signature == nil || highest == 0 {
		return nil
	}
	s := next.Signature.Serial
	switch {
	case s < highest:
		return fmt.Errorf("tool %s: %w: signature serial %d is older than serial %d already seen for this id; sign the tool again ('toolyard tools sign') to publish a newer version",
			next.ID, ErrDowngrade, s, highest)
	case s == highest && !sameContent:
		return fmt.Errorf("tool %s: %w: signature serial %d was already used by a different signed version of this id; sign the tool again",
			next.ID, ErrDowngrade, s)
	}
	return nil
}
