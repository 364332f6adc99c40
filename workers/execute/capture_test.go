package execute

import (
	"strings"
	"testing"
)

func TestHeadBuffer(t *testing.T) {
	tests := []struct {
		name      string
		max       int
		writes    []string
		want      string
		truncated bool
	}{
		{"under", 10, []string{"abc", "de"}, "abcde", false},
		{"exact", 5, []string{"abc", "de"}, "abcde", false},
		{"over in one write", 4, []string{"abcdef"}, "abcd", true},
		{"over across writes", 4, []string{"ab", "cd", "ef"}, "abcd", true},
		{"cut inside a character drops it", 4, []string{"abcé"}, "abc", true},
		{"complete character at the cap kept", 5, []string{"abcéz"}, "abcé", true},
		{"invalid bytes replaced", 10, []string{"a\xffb"}, "a\uFFFDb", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &headBuffer{max: tt.max}
			for _, w := range tt.writes {
				if n, err := h.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v: a capped writer must accept everything", n, err)
				}
			}
			if h.text() != tt.want || h.truncated != tt.truncated {
				t.Fatalf("text %q truncated %v", h.text(), h.truncated)
			}
		})
	}
}

func TestTailBuffer(t *testing.T) {
	tests := []struct {
		name   string
		max    int
		writes []string
		want   string
	}{
		{"under", 10, []string{"abc", "de"}, "abcde"},
		{"rolls over", 4, []string{"ab", "cd", "ef"}, "cdef"},
		{"one big write", 4, []string{"abcdefgh"}, "efgh"},
		{"big write after small", 4, []string{"xy", "abcd"}, "abcd"},
		{"leading partial character dropped", 4, []string{"aébcd"[:3], "bcd"}, "bcd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &tailBuffer{max: tt.max}
			for _, w := range tt.writes {
				tb.Write([]byte(w))
			}
			if tb.text() != tt.want {
				t.Fatalf("text %q, want %q", tb.text(), tt.want)
			}
		})
	}
	tb := &tailBuffer{max: StderrTailBytes}
	for i := 0; i < 1000; i++ {
		tb.Write([]byte(strings.Repeat("x", 99) + "\n"))
	}
	if len(tb.text()) != StderrTailBytes {
		t.Fatalf("tail kept %d bytes", len(tb.text()))
	}
}
