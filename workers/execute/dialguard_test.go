package execute

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestInternalAddr(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1": true, "127.8.9.10": true, "10.1.2.3": true, "172.16.0.1": true, "172.31.255.255": true,
		"192.168.1.1": true, "169.254.169.254": true, "100.64.0.1": true, "0.0.0.0": true, "224.0.0.1": true,
		"::1": true, "::": true, "fd00::1": true, "fe80::1": true, "::ffff:127.0.0.1": true, "::ffff:10.0.0.1": true,
		"8.8.8.8": false, "1.1.1.1": false, "172.32.0.1": false, "2606:4700::1111": false, "::ffff:8.8.8.8": false,
	} {
		if got := internalAddr(netip.MustParseAddr(addr)); got != want {
			t.Errorf("internalAddr(%s) = %v, want %v", addr, got, want)
		}
	}
}

// An http tool whose host name resolves to this machine is refused at the
// connection, whatever its URL check said; the same server named by its
// IP literal is reached.
func TestHTTPDialChecksResolvedAddress(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte("inside"))
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	tests := []struct {
		name    string
		url     string
		allowed []string
		msg     string // "" when it is reached
	}{
		{"IP literal", "http://" + u.Host + "/", nil, ""},
		{"localhost", "http://localhost:" + u.Port() + "/", nil,
			"host localhost resolved to 127.0.0.1, an address on this machine or a private network"},
		{"localhost listed in allowed_hosts", "http://localhost:" + u.Port() + "/", []string{"localhost"}, "resolved to 127.0.0.1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits.Store(0)
			m := httpTool("t/get", "", schemas.Executor{Kind: schemas.ExecHTTP, URL: tc.url, AllowedHosts: tc.allowed})
			e := httpExecutor(t, []schemas.Manifest{m}, WithRetryBudget(0))
			out, err := run(t, e, call("t/get", nil))
			if tc.msg == "" {
				if err != nil || out.Content != "inside" {
					t.Fatalf("%v %+v", err, out)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.msg) || errorCode(err) != CodeHostNotAllowed || IsTransient(err) {
				t.Fatalf("err = %v (code %s), want %s containing %q", err, errorCode(err), CodeHostNotAllowed, tc.msg)
			}
			if hits.Load() != 0 {
				t.Fatal("the server was reached")
			}
		})
	}
}
