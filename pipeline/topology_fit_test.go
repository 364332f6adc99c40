package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

func TestFitStore(t *testing.T) {
	def := DefaultTopology()
	tests := []struct {
		name        string
		budget      int64
		wantChanged bool
		wantErr     error
	}{
		{"the built-in sizes fit", def.Reserved(), false, nil},
		{"a roomy disk", 1 << 40, false, nil},
		{"half of what they need", def.Reserved() / 2, true, nil},
		{"a small disk", 2 << 30, true, nil},
		{"just the floors", 5 * MinStreamBytes, true, nil},
		{"one byte over the floors", 5*MinStreamBytes + 1, true, nil},
		{"under the floors", 5*MinStreamBytes - 1, false, ErrStoreTooSmall},
		{"nothing", 0, false, ErrStoreTooSmall},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, changed, err := def.FitStore(tt.budget)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if changed != tt.wantChanged || got.StoreFitted != tt.wantChanged {
				t.Fatalf("changed %v, StoreFitted %v; want %v", changed, got.StoreFitted, tt.wantChanged)
			}
			if !changed {
				if got != def {
					t.Fatalf("an unchanged fit altered the topology: %+v", got)
				}
				return
			}
			if got.Reserved() > tt.budget {
				t.Fatalf("reserves %d, over the budget %d: %v", got.Reserved(), tt.budget, got.Sizes())
			}
			for _, cfg := range got.Streams() {
				if cfg.MaxBytes < MinStreamBytes || cfg.MaxBytes%MinStreamBytes != 0 {
					t.Errorf("%s max_bytes %d: want a multiple of %d, at least that", cfg.Name, cfg.MaxBytes, MinStreamBytes)
				}
			}
			// Shares are kept where the floors allow: AUDIT, ten times the
			// others by default, stays the largest.
			if got.Audit.MaxBytes < got.Agent.MaxBytes {
				t.Errorf("AUDIT %d smaller than AGENT %d", got.Audit.MaxBytes, got.Agent.MaxBytes)
			}
			// Only sizes change.
			got.Agent.MaxBytes, got.Pipe.MaxBytes, got.Result.MaxBytes, got.Audit.MaxBytes, got.DLQ.MaxBytes = def.Agent.MaxBytes, def.Pipe.MaxBytes, def.Result.MaxBytes, def.Audit.MaxBytes, def.DLQ.MaxBytes
			got.StoreFitted = false
			if got != def {
				t.Fatalf("fitting changed more than sizes: %+v", got)
			}
		})
	}
}

func TestFormatBytes(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{
		{0, "0B"}, {1000, "1000B"}, {1 << 10, "1KiB"}, {64 << 20, "64MiB"}, {1536 << 20, "1.5GiB"}, {10 << 30, "10GiB"}, {3 << 40, "3TiB"},
	} {
		got := FormatBytes(tt.n)
		if got != tt.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", tt.n, got, tt.want)
		}
		if back, err := ParseBytes(got); err != nil || back != tt.n {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", got, back, err, tt.n)
		}
	}
}

// TestSmallStore starts a server whose store is smaller than the built-in
// stream sizes, as on a disk with little free space: the built-in topology
// is refused with a reason that names the stream and what to do, and the
// fitted one, beside what a bucket reserves, is created and then reported
// as no difference.
func TestSmallStore(t *testing.T) {
	srv, err := StartServer(WithDataDir(t.TempDir()), WithListen("127.0.0.1", -1), WithMaxStore(2<<30))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	if got := srv.MaxStore(); got != 2<<30 {
		t.Fatalf("MaxStore %d, want %d", got, 2<<30)
	}
	nc, err := srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	def := DefaultTopology()
	err = def.Ensure(ctx, js)
	if err == nil {
		t.Fatal("the built-in sizes were accepted by a 2 GiB store")
	}
	for _, want := range []string{"create stream RESULT: the server cannot reserve its max_bytes", "--retention RESULT=24h:SIZE", "free disk", "'toolyard up --max-store SIZE'"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q does not say %q", err, want)
		}
	}

	// The refusal came part way: the streams before it exist.
	for _, cfg := range def.Streams() {
		if err := js.DeleteStream(ctx, cfg.Name); err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) {
			t.Fatal(err)
		}
	}
	// A bucket with a size of its own leaves the streams less.
	if _, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: "sized", MaxBytes: 256 << 20}); err != nil {
		t.Fatal(err)
	}
	budget, err := def.StoreBudget(ctx, js, srv.MaxStore())
	if err != nil || budget != srv.MaxStore()-256<<20 {
		t.Fatalf("budget beside a 256 MiB bucket: %d, %v; want %d", budget, err, srv.MaxStore()-256<<20)
	}
	fitted, changed, err := def.FitStore(budget)
	if err != nil || !changed {
		t.Fatalf("FitStore(%d) = changed %v, %v", budget, changed, err)
	}
	if err := fitted.Ensure(ctx, js); err != nil {
		t.Fatalf("the fitted topology (%v) was refused: %v", fitted.Sizes(), err)
	}
	if diffs, err := fitted.Differences(ctx, js); err != nil || len(diffs) != 0 {
		t.Fatalf("differences after creating the fitted topology: %v, %v", diffs, err)
	}

	// Growing an existing stream past the store is an update refused, and
	// says so (it said "create stream AGENT" and named only max_file_store).
	grown := fitted
	grown.Agent.MaxBytes = 4 << 30
	err = grown.Apply(ctx, js)
	if err == nil {
		t.Fatal("a 4 GiB AGENT stream was accepted by a 2 GiB store")
	}
	want := fmt.Sprintf("update stream AGENT: the server cannot reserve its max_bytes 4GiB beside the other streams (it has %s now): give it less with --retention AGENT=24h:SIZE, or give JetStream a larger store: 'toolyard up --max-store SIZE'",
		FormatBytes(fitted.Agent.MaxBytes))
	if !strings.Contains(err.Error(), want) {
		t.Errorf("refused update: %v\nwant it to say %q", err, want)
	}
}
