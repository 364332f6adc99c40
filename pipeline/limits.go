package pipeline

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ParseLimits applies a "STREAM=MAXAGE[:MAXBYTES[:PERSUBJECT]]" setting
// (for example "AUDIT=2160h:50GiB", "RESULT=1h", "DLQ=720h:1GiB:20000")
// to the topology. A zero age or size means unlimited; PERSUBJECT, DLQ's
// only, is each stage's number of dead letters (0: no share, one budget).
func (t *Topology) ParseLimits(spec string) error {
	name, val, ok := strings.Cut(spec, "=")
	if !ok {
		return fmt.Errorf("retention %q: want STREAM=MAXAGE[:MAXBYTES[:PERSUBJECT]], e.g. AUDIT=2160h:50GiB or DLQ=720h:1GiB:20000", spec)
	}
	var l *StreamLimits
	switch strings.ToUpper(strings.TrimSpace(name)) {
	case StreamAgent:
		l = &t.Agent
	case StreamPipe:
		l = &t.Pipe
	case StreamResult:
		l = &t.Result
	case StreamAudit:
		l = &t.Audit
	case StreamDLQ:
		l = &t.DLQ
	default:
		return fmt.Errorf("retention %q: unknown stream %q (streams: AGENT, PIPE, RESULT, AUDIT, DLQ)", spec, name)
	}
	age, size, hasSize := strings.Cut(val, ":")
	size, perSubject, hasPerSubject := strings.Cut(size, ":")
	d, err := time.ParseDuration(strings.TrimSpace(age))
	if err != nil || d < 0 {
		return fmt.Errorf("retention %q: max age %q is not a duration like 24h", spec, age)
	}
	l.MaxAge = d
	// "DLQ=720h::20000" sets the share and keeps the size.
	if hasSize && (!hasPerSubject || strings.TrimSpace(size) != "") {
		n, err := ParseBytes(size)
		if err != nil {
			return fmt.Errorf("retention %q: %w", spec, err)
		}
		l.MaxBytes = n
	}
	if hasPerSubject {
		if l != &t.DLQ {
			return fmt.Errorf("retention %q: a per-subject count is DLQ's only (each stage's share of dead letters)", spec)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(perSubject), 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("retention %q: per-stage dead letters %q is not a count like 20000", spec, perSubject)
		}
		l.MaxPerSubject = n
	}
	return nil
}

// ParseBytes reads a size such as 512MiB, 10GiB, 1GB or 4096.
func ParseBytes(s string) (int64, error) {
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("size %q is not a size like 512MiB or 10GiB", s)
	}
	return int64(n * float64(mult)), nil
}

// FormatBytes writes a size the way ParseBytes reads it, in the largest
// binary unit that keeps a whole number before the point, to a tenth:
// 1536MiB is "1.5GiB", 64MiB "64MiB".
func FormatBytes(n int64) string {
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size {
			return strconv.FormatFloat(math.Round(float64(n)/float64(u.size)*10)/10, 'f', -1, 64) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}
