package replay

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/fnv"
	"os"
	"path/filepath"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// A history too long to hold in memory is replayed a group of sessions at
// a time. Everything an intent's replay and its label need (its records,
// the session's later corrections and feedback) lies in its own session,
// so a group is extracted, labelled and replayed alone, and the report's
// Accumulator takes its rows: a history of any length is replayed in the
// memory of one group.

// DefaultGroupBytes is how much audit JSON a group holds by default: about
// 150k records, well under a gigabyte once decoded and replayed.
const DefaultGroupBytes = 64 << 20

// MaxGroups bounds the groups, each an open file while the audit is read:
// a history beyond MaxGroups × the group size makes larger groups rather
// than exhaust the process's file descriptors.
const MaxGroups = 256

// GroupsFor is how many groups input of about size bytes needs so each
// holds about groupBytes (at most MaxGroups).
func GroupsFor(size, groupBytes int64) int {
	if groupBytes <= 0 {
		groupBytes = DefaultGroupBytes
	}
	return int(min(MaxGroups, max(1, (size+groupBytes-1)/groupBytes)))
}

// Partition holds audit records by session in n groups. With one group
// the records stay in memory; with more, each group is a file of JSON
// lines in a private directory that Close removes.
type Partition struct {
	place   hash.Hash64 // places a session in its group: FNV-1a, the same group in every run
	mem     []schemas.AuditRecord
	dir     string
	files   []*os.File
	writers []*bufio.Writer
	counts  []int
	records int
	tools   map[string]int
	// first and last are the earliest and latest record timestamps.
	first, last time.Time
}

// NewPartition makes a partition of n groups; the files of n > 1 groups
// go in a new directory under parent (the system's temporary directory
// when empty), readable by this user only: they hold what agents asked.
func NewPartition(n int, parent string) (*Partition, error) {
	p := &Partition{counts: make([]int, max(n, 1)), place: fnv.New64a()}
	if n <= 1 {
		return p, nil
	}
	dir, err := os.MkdirTemp(parent, "toolyard-replay-")
	if err != nil {
		return nil, fmt.Errorf("replay: a directory for %d groups of sessions: %w", n, err)
	}
	p.dir = dir
	for i := range n {
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("group-%04d.jsonl", i)), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("replay: %w", err), p.Close())
		}
		p.files = append(p.files, f)
		p.writers = append(p.writers, bufio.NewWriterSize(f, 64<<10))
	}
	return p, nil
}

// Groups is how many groups there are.
func (p *Partition) Groups() int { return len(p.counts) }

// Records is how many records were added.
func (p *Partition) Records() int { return p.records }

// Tools is how many records named each tool id (records without one are
// not counted): one entry per distinct tool, however long the history.
func (p *Partition) Tools() map[string]int { return p.tools }

// Span is the earliest and the latest timestamp of the records added.
func (p *Partition) Span() (first, last time.Time) { return p.first, p.last }

// Add puts a record in its session's group.
func (p *Partition) Add(r schemas.AuditRecord) error {
	p.records++
	if p.first.IsZero() || r.Timestamp.Before(p.first) {
		p.first = r.Timestamp
	}
	if r.Timestamp.After(p.last) {
		p.last = r.Timestamp
	}
	if r.ToolID != "" {
		if p.tools == nil {
			p.tools = map[string]int{}
		}
		p.tools[r.ToolID]++
	}
	if p.files == nil {
		p.mem = append(p.mem, r)
		p.counts[0]++
		return nil
	}
	p.place.Reset()
	p.place.Write([]byte(r.SessionID))
	i := int(p.place.Sum64() % uint64(len(p.files)))
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("replay: spill a record of session %q: %w", r.SessionID, err)
	}
	if _, err := p.writers[i].Write(append(line, '\n')); err != nil {
		return fmt.Errorf("replay: spill to %s: %w", p.files[i].Name(), err)
	}
	p.counts[i]++
	return nil
}

// Group returns the records of group i, in the order they were added.
func (p *Partition) Group(i int) ([]schemas.AuditRecord, error) {
	if i < 0 || i >= len(p.counts) {
		return nil, fmt.Errorf("replay: no group %d of %d", i, len(p.counts))
	}
	if p.files == nil {
		return p.mem, nil
	}
	f := p.files[i]
	if err := p.writers[i].Flush(); err != nil {
		return nil, fmt.Errorf("replay: spill to %s: %w", f.Name(), err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		return nil, fmt.Errorf("replay: read %s: %w", f.Name(), err)
	}
	out := make([]schemas.AuditRecord, 0, p.counts[i])
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		var r schemas.AuditRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("replay: read %s: %w", f.Name(), err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("replay: read %s: %w", f.Name(), err)
	}
	if _, err := f.Seek(0, 2); err != nil {
		return nil, fmt.Errorf("replay: %s: %w", f.Name(), err)
	}
	return out, nil
}

// Close removes the groups' files.
func (p *Partition) Close() error {
	var errs []error
	for _, f := range p.files {
		errs = append(errs, f.Close())
	}
	p.files, p.writers, p.mem = nil, nil, nil
	if p.dir != "" {
		errs = append(errs, os.RemoveAll(p.dir))
		p.dir = ""
	}
	return errors.Join(errs...)
}
