package pipeline

import (
	"strings"
	"testing"
	"time"
)

func TestParseLimits(t *testing.T) {
	tests := []struct {
		spec    string
		check   func(Topology) bool
		wantErr string
	}{
		{"AUDIT=2160h:50GiB", func(t Topology) bool { return t.Audit.MaxAge == 2160*time.Hour && t.Audit.MaxBytes == 50<<30 }, ""},
		{"result=1h", func(t Topology) bool { return t.Result.MaxAge == time.Hour && t.Result.MaxBytes == 1<<30 }, ""},
		{"DLQ=0:1.5GB", func(t Topology) bool { return t.DLQ.MaxAge == 0 && t.DLQ.MaxBytes == 1.5e9 }, ""},
		{"DLQ=720h:2GiB:20000", func(t Topology) bool { return t.DLQ.MaxBytes == 2<<30 && t.DLQ.MaxPerSubject == 20000 }, ""},
		{"dlq=720h::0", func(t Topology) bool { return t.DLQ.MaxBytes == 1<<30 && t.DLQ.MaxPerSubject == 0 }, ""},
		{"DLQ=720h", func(t Topology) bool { return t.DLQ.MaxPerSubject == DefaultDLQPerStage }, ""},
		{"AUDIT=720h:1GiB:10", nil, "DLQ's only"},
		{"DLQ=720h:1GiB:many", nil, "not a count"},
		{"AUDIT", nil, "want STREAM=MAXAGE"},
		{"NOPE=1h", nil, "unknown stream"},
		{"AUDIT=soon", nil, "not a duration"},
		{"AUDIT=1h:lots", nil, "not a size"},
	}
	for _, tt := range tests {
		top := DefaultTopology()
		err := top.ParseLimits(tt.spec)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: err = %v, want %q", tt.spec, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !tt.check(top) {
			t.Errorf("%s: err %v, topology %+v", tt.spec, err, top)
		}
	}
}
