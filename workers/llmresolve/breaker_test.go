package llmresolve

import (
	"errors"
	"testing"
	"time"
)

func TestBreaker(t *testing.T) {
	now := time.Unix(1000, 0)
	b := &breaker{failures: 2, cooldown: 10 * time.Second, now: func() time.Time { return now }}
	steps := []struct {
		name    string
		advance time.Duration
		allowed bool
		outcome string // "ok", "fail", "abort" or "" (not sent)
	}{
		{"closed", 0, true, "fail"},
		{"one failure is not a run", 0, true, "fail"},
		{"open after two", 0, false, ""},
		{"still open", 9 * time.Second, false, ""},
		{"cooldown over: one probe", 2 * time.Second, true, ""},
		{"no second request while probing", 0, false, ""},
		{"probe's caller gave up", 0, false, ""},
		{"probe again", 0, true, "fail"},
		{"failed probe reopens", 0, false, ""},
		{"next probe", 11 * time.Second, true, "ok"},
		{"closed after an answer", 0, true, "fail"},
		{"a single failure again is not a run", 0, true, "ok"},
	}
	for i, st := range steps {
		now = now.Add(st.advance)
		if st.name == "probe's caller gave up" {
			b.abort()
			continue
		}
		err := b.allow()
		if (err == nil) != st.allowed {
			t.Fatalf("step %d (%s): allow error %v, want allowed %v", i, st.name, err, st.allowed)
		}
		if err != nil && !errors.Is(err, errSkipped) {
			t.Fatalf("step %d: error %v is not errSkipped", i, err)
		}
		switch st.outcome {
		case "ok":
			b.done(true)
		case "fail":
			b.done(false)
		}
	}
}

func TestBreakerOff(t *testing.T) {
	b := &breaker{failures: 0, now: time.Now}
	for range 10 {
		if err := b.allow(); err != nil {
			t.Fatal(err)
		}
		b.done(false)
	}
	var nilb *breaker
	if err := nilb.allow(); err != nil {
		t.Fatal(err)
	}
	nilb.done(false)
	nilb.abort()
}
