// Package eval measures discovery (and later resolution) on query files:
// ranking quality, calibration of the confidence, and latency.
package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Query is one line of a query file (the contract in DESIGN.md).
type Query struct {
	ID          string     `json:"id"`
	Query       string     `json:"query"`
	GoldToolIDs []string   `json:"gold_tool_ids"`
	GoldCalls   []GoldCall `json:"gold_calls,omitempty"`
	// NeedsTool labels awareness sets: whether the query needs a tool at all.
	NeedsTool *bool `json:"needs_tool,omitempty"`
}

// GoldCall is a reference call: the tool and its arguments.
type GoldCall struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
}

// LoadQueries reads a JSONL query file, naming the line of any bad entry.
func LoadQueries(path string) ([]Query, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open queries: %w", err)
	}
	defer f.Close()
	var qs []Query
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var q Query
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", path, n, err)
		}
		if q.ID == "" || strings.TrimSpace(q.Query) == "" {
			return nil, fmt.Errorf("%s line %d: id and query are required", path, n)
		}
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s: no queries", path)
	}
	return qs, nil
}
