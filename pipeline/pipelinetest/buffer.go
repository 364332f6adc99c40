package pipelinetest

import (
	"strings"
	"sync"
)

// Buffer collects what is written to it (a process's output, a logger's)
// and may be read meanwhile: a strings.Builder safe for concurrent
// writers and readers.
type Buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is everything written so far.
func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
