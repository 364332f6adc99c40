package execute

import (
	"io"
	"strings"
	"unicode/utf8"
)

// headBuffer keeps the first max bytes written to it and counts the rest,
// so a chatty tool is capped without ever blocking on a full pipe.
type headBuffer struct {
	max       int
	buf       []byte
	truncated bool
}

func (h *headBuffer) Write(p []byte) (int, error) {
	if room := h.max - len(h.buf); room > 0 {
		if len(p) <= room {
			h.buf = append(h.buf, p...)
			return len(p), nil
		}
		h.buf = append(h.buf, p[:room]...)
	}
	if len(p) > 0 {
		h.truncated = true
	}
	return len(p), nil
}

// text is the kept output as valid UTF-8. A character cut by the cap is
// dropped rather than shown as a replacement character.
func (h *headBuffer) text() string {
	b := h.buf
	if h.truncated {
		b = trimPartialRuneEnd(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// tailBuffer keeps the last max bytes written to it: the end of stderr is
// where the error usually is.
type tailBuffer struct {
	max     int
	buf     []byte
	dropped bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= t.max {
		t.dropped = t.dropped || len(t.buf) > 0 || len(p) > t.max
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return n, nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.dropped = true
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

func (t *tailBuffer) text() string {
	b := t.buf
	if t.dropped {
		for len(b) > 0 && !utf8.RuneStart(b[0]) {
			b = b[1:]
		}
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

func trimPartialRuneEnd(b []byte) []byte {
	// Look back at most one rune's width for an incomplete sequence.
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// drain copies r into w until EOF and closes r; done is closed after.
func drain(r io.ReadCloser, w io.Writer, done chan<- struct{}) {
	defer close(done)
	defer r.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			_, _ = w.Write(buf[:n])
		}
		if err != nil {
			return
		}
	}
}
