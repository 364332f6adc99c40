package route

import (
	"encoding/json"
	"fmt"
	"sync/atomic"
)

// Live holds the thresholds in force; a new version (from the models
// bucket) replaces them for the next decision, without a restart.
type Live struct {
	p atomic.Pointer[Thresholds]
}

// NewLive starts with th, which must be valid.
func NewLive(th Thresholds) (*Live, error) {
	if err := th.Validate(); err != nil {
		return nil, err
	}
	l := &Live{}
	l.p.Store(&th)
	return l, nil
}

// Load returns the thresholds in force.
func (l *Live) Load() Thresholds { return *l.p.Load() }

// Store puts th in force if it is valid.
func (l *Live) Store(th Thresholds) error {
	if err := th.Validate(); err != nil {
		return err
	}
	l.p.Store(&th)
	return nil
}

// StoreJSON puts a JSON document {"activate", "multiple", "weak"} in force;
// the fields it leaves out keep their current values.
func (l *Live) StoreJSON(data []byte) error {
	th := l.Load()
	if err := json.Unmarshal(data, &th); err != nil {
		return fmt.Errorf("thresholds document: %w", err)
	}
	return l.Store(th)
}
