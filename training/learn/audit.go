package learn

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/toolyard/toolyard/schemas"
)

// BadLine is an audit line that was skipped, with why.
type BadLine struct {
	File string
	Line int
	Err  error
}

func (b BadLine) Error() string { return fmt.Sprintf("%s:%d: %v", b.File, b.Line, b.Err) }

// ReadAuditFile reads audit JSONL (the contract in DESIGN.md), validating
// every line against the audit record schema: good records are returned,
// bad lines reported, never the whole file refused for one.
func ReadAuditFile(path string) ([]schemas.AuditRecord, []BadLine, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return ReadAudit(f, path)
}

// ReadAudit is ReadAuditFile over a reader; name labels bad lines.
func ReadAudit(r io.Reader, name string) ([]schemas.AuditRecord, []BadLine, error) {
	var recs []schemas.AuditRecord
	var bad []BadLine
	err := ScanAudit(r, name, func(rec schemas.AuditRecord) error {
		recs = append(recs, rec)
		return nil
	}, func(b BadLine) { bad = append(bad, b) })
	return recs, bad, err
}

// ScanAudit reads audit JSONL from r as ReadAudit does, one record at a
// time: each is called with every valid record (an error from it stops the
// scan and is returned), bad with every bad line. Memory does not grow
// with the input.
func ScanAudit(r io.Reader, name string, each func(schemas.AuditRecord) error, bad func(BadLine)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		rec, err := schemas.Decode[schemas.AuditRecord](schemas.KindAuditRecord, line)
		if err != nil {
			bad(BadLine{File: name, Line: n, Err: err})
			continue
		}
		if err := each(rec); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
