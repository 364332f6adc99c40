package execute

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// ErrHostNotAllowed: an http tool's request (or a redirect it got) would go
// to a host outside its allowed_hosts.
var ErrHostNotAllowed = errors.New("host not allowed")

// hostRule is one allowed_hosts entry: a host name or IP, or "*.domain" for
// any subdomain, with an optional port.
type hostRule struct {
	host     string
	wildcard bool
	port     string
}

// hostList is an http tool's allowed hosts.
type hostList []hostRule

// parseHosts reads allowed_hosts entries: "api.example.com" (any port),
// "api.example.com:8443", "*.example.com", "127.0.0.1:8080", "[::1]:80".
func parseHosts(entries []string) (hostList, error) {
	out := make(hostList, 0, len(entries))
	for _, e := range entries {
		r, err := parseHost(e)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func parseHost(e string) (hostRule, error) {
	s := strings.ToLower(strings.TrimSpace(e))
	if s == "" || strings.ContainsAny(s, "/@?# ") {
		return hostRule{}, fmt.Errorf("allowed_hosts entry %q is not a host or host:port", e)
	}
	var r hostRule
	if h, p, err := net.SplitHostPort(s); err == nil {
		r.host, r.port = h, p
	} else {
		r.host = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	}
	if rest, ok := strings.CutPrefix(r.host, "*."); ok {
		r.host, r.wildcard = rest, true
	}
	if r.host == "" || strings.Contains(r.host, "*") {
		return hostRule{}, fmt.Errorf("allowed_hosts entry %q: a wildcard may only lead (*.example.com)", e)
	}
	return r, nil
}

// allows reports whether a request to u may be sent.
func (l hostList) allows(u *url.URL) bool {
	if u.Scheme != "http" && u.Scheme != "https" {
		return false
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	for _, r := range l {
		if r.port != "" && r.port != port {
			continue
		}
		if r.wildcard && strings.HasSuffix(host, "."+r.host) || !r.wildcard && host == r.host {
			return true
		}
	}
	return false
}

func (l hostList) String() string {
	parts := make([]string, len(l))
	for i, r := range l {
		h := r.host
		if r.wildcard {
			h = "*." + h
		}
		if r.port != "" {
			h = net.JoinHostPort(h, r.port)
		}
		parts[i] = h
	}
	return strings.Join(parts, ", ")
}
