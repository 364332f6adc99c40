package mcpclient_test

import (
	"context"
	"testing"

	"github.com/toolyard/toolyard/workers/mcpclient"
)

// BenchmarkPoolCall: one tools/call on a pooled session (the session is
// opened before the timer starts), per transport.
func BenchmarkPoolCall(b *testing.B) {
	b.Run("stdio", func(b *testing.B) { benchCall(b, stdioServerB(b)) })
	b.Run("http", func(b *testing.B) { benchCall(b, httpServerB(b)) })
}

func benchCall(b *testing.B, srv mcpclient.Server) {
	p := mcpclient.NewPool()
	defer p.Close()
	ctx := context.Background()
	if _, err := p.CallTool(ctx, srv, "pid", nil, ""); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := p.CallTool(ctx, srv, "pid", nil, "k"); err != nil {
			b.Fatal(err)
		}
	}
}
