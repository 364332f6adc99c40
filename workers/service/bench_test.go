package service_test

import (
	"testing"
	"time"

	"github.com/nats-io/nats.go/micro"

	"github.com/toolyard/toolyard/workers/service"
)

// BenchmarkResolveIntent measures one toolyard.resolve_intent request over
// a real embedded server, sample registry, keyword discovery, sessions on:
// a not-found answer (discovery, routing, the registry summary), a
// medium-tier answer, and an activate command (routing, resolution, the
// builtin, a session write).
func BenchmarkResolveIntent(b *testing.B) {
	for _, bm := range []struct{ name, body string }{
		{"not_found", `{"session_id": "bench", "text": "compose a sonnet about zyxglorp"}`},
		{"multiple_matches", `{"session_id": "bench", "text": "send a message"}`},
		{"activate", `{"session_id": "bench", "text": "activate files/checksum"}`},
	} {
		b.Run(bm.name, func(b *testing.B) {
			f := start(b, true)
			for b.Loop() {
				m, err := f.env.NC.Request(service.SessionSubject(service.SubjectResolveIntent, "bench"), []byte(bm.body), 10*time.Second)
				if err != nil || m.Header.Get(micro.ErrorCodeHeader) != "" {
					b.Fatalf("%v %v", err, m.Header)
				}
			}
		})
	}
}
