package mcpclient_test

import (
	"encoding/json"
	"net/http"
	"net/http/httputil"
	"net/url"
)

type httptestRequest = http.Request

func jsonUnmarshal(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, v)
}

// proxy forwards r to base (same path), streaming the answer back.
func proxy(w http.ResponseWriter, r *http.Request, base string) {
	u, _ := url.Parse(base)
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.FlushInterval = -1 // SSE: flush at once
	rp.ServeHTTP(w, r)
}
