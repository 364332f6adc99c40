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

// serialMark is the value of a serial key: the highest serial and the
// content hash (ContentHash) of the manifest that carried it, so the very
// same version can be imported again after a removal.
type serialMark struct {
	serial int64
	hash   string
}

func parseMark(id string, v []byte) (serialMark, error) {
	num, hash, _ := strings.Cut(string(v), " ")
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return serialMark{}, fmt.Errorf("serial mark of tool %q is %q, not \"SERIAL HASH\": %w", id, v, err)
	}
	return serialMark{serial: n, hash: hash}, nil
}

// highestSerial is the serial mark of id: the stored mark, or the
// registered manifest's serial (cur, nil when none) if that is higher.
func (s *Store) highestSerial(ctx context.Context, id string, cur *schemas.Manifest) (serialMark, error) {
	var m serialMark
	if cur != nil {
		m = serialMark{serial: sign.Serial(*cur), hash: ContentHash(*cur)}
	}
	e, err := s.kv.Get(ctx, serialKey(id))
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return m, nil
	case err != nil:
		return m, fmt.Errorf("read the serial mark of tool %q: %w", id, err)
	}
	stored, err := parseMark(id, e.Value())
	if err != nil {
		return m, err
	}
	if stored.serial > m.serial {
		return stored, nil
	}
	return m, nil
}

// raiseSerial records m's serial as id's mark when it is higher.
func (s *Store) raiseSerial(ctx context.Context, m schemas.Manifest) error {
	serial := sign.Serial(m)
	if serial == 0 {
		return nil
	}
	e, err := s.kv.Get(ctx, serialKey(m.ID))
	val := []byte(strconv.FormatInt(serial, 10) + " " + ContentHash(m))
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		_, err = s.kv.Create(ctx, serialKey(m.ID), val)
	case err != nil:
	default:
		if cur, perr := parseMark(m.ID, e.Value()); perr == nil && cur.serial >= serial {
			return nil
		}
		_, err = s.kv.Update(ctx, serialKey(m.ID), val, e.Revision())
	}
	if err != nil {
		return fmt.Errorf("record the serial mark of tool %q: %w", m.ID, err)
	}
	return nil
}
