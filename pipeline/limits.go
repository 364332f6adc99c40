package pipeline

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseLimits applies a "STREAM=MAXAGE[:MAXBYTES]" setting (for example
// "AUDIT=2160h:50GiB", "RESULT=1h") to the topology. A zero age or size
// means unlimited.
func (t *Topology) ParseLimits(spec string) error {
	name, val, ok := strings.Cut(spec, "=")
	if !ok {
		return fmt.Errorf("retention %q: want STREAM=MAXAGE[:MAXBYTES], e.g. AUDIT=2160h:50GiB", spec)
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
	d, err := time.ParseDuration(strings.TrimSpace(age))
	if err != nil || d < 0 {
		return fmt.Errorf("retention %q: max age %q is not a duration like 24h", spec, age)
	}
	l.MaxAge = d
	if hasSize {
		n, err := ParseBytes(size)
		if err != nil {
			return fmt.Errorf("retention %q: %w", spec, err)
		}
		l.MaxBytes = n
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
