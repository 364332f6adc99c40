package main

import (
	"strings"
	"testing"
)

func TestServerTLSRefusesPlainTextOffLoopback(t *testing.T) {
	tests := []struct {
		host      string
		f         serverTLSFlags
		wantErr   string
		wantPlain bool
	}{
		{host: "127.0.0.1", wantPlain: true},
		{host: "::1", wantPlain: true},
		{host: "localhost", wantPlain: true},
		{host: "0.0.0.0", wantErr: "reachable from other machines"},
		{host: "10.1.2.3", wantErr: "--insecure-listen"},
		{host: "", wantErr: "reachable from other machines"},
		{host: "0.0.0.0", f: serverTLSFlags{insecureListen: true}, wantPlain: true},
		{host: "0.0.0.0", f: serverTLSFlags{cert: "c.pem"}, wantErr: "go together"},
		{host: "0.0.0.0", f: serverTLSFlags{cert: "/nonexistent/c.pem", key: "/nonexistent/k.pem"}, wantErr: "server certificate"},
	}
	for _, tt := range tests {
		cfg, err := tt.f.config(tt.host)
		switch {
		case tt.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%q %+v: error %v, want one saying %q", tt.host, tt.f, err, tt.wantErr)
			}
		case err != nil || (cfg == nil) != tt.wantPlain:
			t.Errorf("%q %+v: config %v, error %v", tt.host, tt.f, cfg, err)
		}
	}
}
