package registry

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry/sign"
)

// serialPrefix starts the keys of the tools bucket that keep, per tool id,
// the highest signature serial ever imported: "serial." + Key(id). Key
// escapes '.', so no tool's key has one and the two never collide. The
// mark outlives the tool: removing a tool and importing an older signed
// version of it is refused too.
const serialPrefix = "serial."

// isToolKey tells tool keys from the bucket's bookkeeping keys.
func isToolKey(key string) bool { return !strings.Contains(key, ".") }

func serialKey(id string) string { return serialPrefix + Key(id) }

// highestSerial is the serial mark of id: the higher of the stored mark
// and the registered manifest's serial (cur, nil when none).
func (s *Store) highestSerial(ctx context.Context, id string, cur *schemas.Manifest) (int64, error) {
	var n int64
	if cur != nil {
		n = sign.Serial(*cur)
	}
	e, err := s.kv.Get(ctx, serialKey(id))
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return n, nil
	case err != nil:
		return 0, fmt.Errorf("read the serial mark of tool %q: %w", id, err)
	}
	mark, err := strconv.ParseInt(string(e.Value()), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("serial mark of tool %q is %q, not a number: %w", id, e.Value(), err)
	}
	return max(n, mark), nil
}

// raiseSerial records m's serial as id's mark when it is higher.
func (s *Store) raiseSerial(ctx context.Context, m schemas.Manifest) error {
	serial := sign.Serial(m)
	if serial == 0 {
		return nil
	}
	e, err := s.kv.Get(ctx, serialKey(m.ID))
	val := []byte(strconv.FormatInt(serial, 10))
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		_, err = s.kv.Create(ctx, serialKey(m.ID), val)
	case err != nil:
	default:
		if cur, perr := strconv.ParseInt(string(e.Value()), 10, 64); perr == nil && cur >= serial {
			return nil
		}
		_, err = s.kv.Update(ctx, serialKey(m.ID), val, e.Revision())
	}
	if err != nil {
		return fmt.Errorf("record the serial mark of tool %q: %w", m.ID, err)
	}
	return nil
}
