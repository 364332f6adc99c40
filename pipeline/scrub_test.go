package pipeline_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/toolyard/toolyard/pipeline"
)

func TestScrubberBytes(t *testing.T) {
	cases := []struct {
		name    string
		secrets []string
		in      string
		want    string
		changed bool
	}{
		{"no secrets", nil, `{"a":"hunter22"}`, `{"a":"hunter22"}`, false},
		{"absent", []string{"hunter22"}, `{"a":"fine"}`, `{"a":"fine"}`, false},
		{"whole string value", []string{"hunter22"}, `{"a":"hunter22"}`, `{"a":"***"}`, true},
		{"inside text", []string{"hunter22"}, `{"msg":"password hunter22 is wrong"}`, `{"msg":"password *** is wrong"}`, true},
		{"nested and in arrays", []string{"hunter22"}, `{"o":{"l":["x","hunter22"]}}`, `{"o":{"l":["x","***"]}}`, true},
		{"keys are structure", []string{"hunter22"}, `{"hunter22":"v"}`, `{"hunter22":"v"}`, false},
		{"whole number", []string{"12345678"}, `{"pin":12345678,"n":1}`, `{"n":1,"pin":"***"}`, true},
		{"escaped quote", []string{`pa"ss"word`}, `{"a":"x pa\"ss\"word y"}`, `{"a":"x *** y"}`, true},
		{"HTML-escaped by Go", []string{"a<b>&cdef"}, `{"a":"a\u003cb\u003e\u0026cdef"}`, `{"a":"***"}`, true},
		{"longest first", []string{"token", "token-extended"}, `{"a":"token-extended token"}`, `{"a":"*** ***"}`, true},
		{"too short to search", []string{"abc"}, `{"a":"abc"}`, `{"a":"abc"}`, false},
		{"not JSON", []string{"hunter22"}, "stderr: hunter22\n", "stderr: ***\n", true},
		{"two documents are text", []string{"hunter22"}, `{"a":"hunter22"} {}`, `{"a":"***"} {}`, true},
		{"unicode", []string{"пароль-секрет"}, `{"a":"это пароль-секрет"}`, `{"a":"это ***"}`, true},
		{"a PIN standing alone", []string{"4321"}, `{"msg":"pin 4321 is wrong"}`, `{"msg":"pin *** is wrong"}`, true},
		{"a PIN's digits inside a timestamp and a number", []string{"4321"}, `{"t":"2026-11-26T00:14:16.74321Z","d":14321.5}`, `{"t":"2026-11-26T00:14:16.74321Z","d":14321.5}`, false},
		{"a short secret inside a word", []string{"exec"}, `{"status":"executed","m":"run exec now"}`, `{"m":"run *** now","status":"executed"}`, true},
		{"a long secret inside a word", []string{"hunter22x"}, `{"m":"xxhunter22xyy"}`, `{"m":"xx***yy"}`, true},
		// An http tool's {env.KEY} in a URL reaches an error message (Go's
		// *url.Error quotes the whole URL) escaped for the URL.
		{"query-escaped in a URL", []string{"s3cr/t+key=="}, `{"e":"Get \"http://h/x?key=s3cr%2Ft%2Bkey%3D%3D\": connection refused"}`, `{"e":"Get \"http://h/x?key=***\": connection refused"}`, true},
		{"path-escaped in a URL", []string{"s3cr/t key"}, `{"e":"Get \"http://h/v1/s3cr%2Ft%20key/x\": EOF"}`, `{"e":"Get \"http://h/v1/***/x\": EOF"}`, true},
		{"query-escaped in text", []string{"p@ss word!"}, "GET /x?p=p%40ss+word%21 failed", "GET /x?p=*** failed", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, changed := pipeline.NewScrubber(c.secrets...).Bytes([]byte(c.in))
			if string(got) != c.want || changed != c.changed {
				t.Errorf("Bytes(%s) = %s, %v; want %s, %v", c.in, got, changed, c.want, c.changed)
			}
			if changed && json.Valid([]byte(c.in)) && !json.Valid(got) {
				t.Errorf("scrubbing made invalid JSON: %s", got)
			}
		})
	}
}

func TestScrubberString(t *testing.T) {
	cases := []struct {
		name    string
		secrets []string
		in      string
		want    string
	}{
		{"nil scrubber keeps text", nil, "hunter22", "hunter22"},
		{"raw", []string{"hunter22"}, "a hunter22 b hunter22", "a *** b ***"},
		{"JSON-escaped form in text", []string{`x"y\z-long`}, `field "x\"y\\z-long"`, `field "***"`},
		{"empty and mark ignored", []string{"", "***"}, "*** stays", "*** stays"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s *pipeline.Scrubber
			if c.secrets != nil {
				s = pipeline.NewScrubber(c.secrets...)
			}
			if got := s.String(c.in); got != c.want {
				t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestScrubberOuts(t *testing.T) {
	s := pipeline.NewScrubber("hunter22")
	s.Add("learned-later") // a handler adds what it learns
	outs := []pipeline.Out{
		{Subject: "pipe.execute.s1", Data: []byte(`{"token":"hunter22"}`), Secret: true},
		{Subject: "result.s1", Data: []byte(`{"message":"hunter22 learned-later"}`), Secret: true},
		{Subject: "audit.execute.s1", Data: []byte(`{"x":"hunter22"}`), Header: nats.Header{"Why": []string{"because hunter22"}}},
	}
	got := s.Outs(outs)
	want := []string{`{"token":"hunter22"}`, `{"message":"*** ***"}`, `{"x":"***"}`}
	for i, o := range got {
		if string(o.Data) != want[i] {
			t.Errorf("out %d (%s): %s, want %s", i, o.Subject, o.Data, want[i])
		}
	}
	if h := got[2].Header.Get("Why"); h != "because ***" {
		t.Errorf("header not scrubbed: %q", h)
	}
	if outs[2].Header.Get("Why") != "because hunter22" {
		t.Error("Outs changed its input's header")
	}
}

func TestRedactLogs(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(pipeline.RedactLogs(slog.NewJSONHandler(&buf, nil)))
	cases := []struct {
		name string
		log  func()
	}{
		{"message", func() { log.Info("running with hunter22") }},
		{"string attr", func() { log.Info("x", "arg", "hunter22") }},
		{"error attr", func() { log.Warn("x", "error", errors.New("bad value hunter22")) }},
		{"any attr", func() { log.Info("x", "params", map[string]any{"token": "hunter22"}) }},
		{"group", func() { log.Info("x", slog.Group("call", "token", "hunter22")) }},
		{"with", func() { log.With("token", "hunter22").Info("x") }},
	}
	release := pipeline.HoldSecretsForTest(pipeline.NewScrubber("hunter22"))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			buf.Reset()
			c.log()
			if strings.Contains(buf.String(), "hunter22") || !strings.Contains(buf.String(), "***") {
				t.Errorf("log line: %s", buf.String())
			}
		})
	}
	release()
	buf.Reset()
	log.Info("after release", "v", "hunter22")
	if !strings.Contains(buf.String(), "hunter22") {
		t.Errorf("a secret no longer in flight is still scrubbed: %s", buf.String())
	}
}

// A handler may add secrets while log lines are scrubbed with them (run
// with -race).
func TestScrubberConcurrentAdd(t *testing.T) {
	s := pipeline.NewScrubber("first-secret")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 200 {
			s.Add(fmt.Sprintf("pin%d", 1000+i), fmt.Sprintf("secret-number-%d", i))
		}
	}()
	for i := 0; i < 200; i++ {
		if got := s.String("first-secret pin1000"); strings.Contains(got, "first-secret") {
			t.Fatalf("scrubbed: %q", got)
		}
	}
	<-done
	if got := s.String("pin1199 secret-number-199"); got != "*** ***" {
		t.Errorf("after the adds: %q", got)
	}
}
