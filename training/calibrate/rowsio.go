package calibrate

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
)

// WriteRows writes rows as JSON lines, so a tuner can fit and compare many
// specs without ranking every collection again.
func WriteRows(w io.Writer, rows []Row) error {
	enc := json.NewEncoder(w)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("write rows: %w", err)
		}
	}
	return nil
}

// ReadRows reads what WriteRows wrote.
func ReadRows(r io.Reader) ([]Row, error) {
	var rows []Row
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		var row Row
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			return nil, fmt.Errorf("rows line %d: %w", n, err)
		}
		if row.Set == "" {
			return nil, fmt.Errorf("rows line %d: no collection", n)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read rows: %w", err)
	}
	return rows, nil
}
