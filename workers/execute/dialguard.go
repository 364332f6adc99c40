package execute

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// ErrAddressNotAllowed: an http tool's host name resolved to an address
// on this machine or a private network (loopback, private, link-local —
// the cloud metadata service —, unique-local, CGNAT, multicast,
// unspecified). Checking the URL is not enough: a name can resolve to a
// public address when checked and to 127.0.0.1 when dialled (DNS
// rebinding), so the check runs on the address of every connection.
var ErrAddressNotAllowed = errors.New("address not allowed")

// internalPrefixes are the ranges a host name may not lead to.
var internalPrefixes = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
		"192.0.0.0/24", "192.168.0.0/16", "198.18.0.0/15", "224.0.0.0/4", "240.0.0.0/4",
		"::/128", "::1/128", "fc00::/7", "fe80::/10", "ff00::/8", "64:ff9b::/96",
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// internalAddr reports whether ip is on this machine or a private network.
func internalAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range internalPrefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// guardedDial dials like net.Dialer but refuses, at the moment of
// connecting, an internal address reached through a host name. An address
// written as an IP literal (in the URL, after the URL check against the
// tool's hosts) is what the manifest's author or operator named: no DNS
// answer can change it, so it is allowed — that is how a tool reaches a
// service on this machine on purpose.
func guardedDial(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		if _, err := netip.ParseAddr(host); err == nil {
			return d.DialContext(ctx, network, addr)
		}
		dd := *d
		dd.ControlContext = func(_ context.Context, _, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("%w: cannot read the address %q being dialled", ErrAddressNotAllowed, address)
			}
			if internalAddr(ap.Addr()) {
				return &addrError{host: host, addr: ap}
			}
			return nil
		}
		return dd.DialContext(ctx, network, addr)
	}
}

type addrError struct {
	host string
	addr netip.AddrPort
}

func (e *addrError) Error() string {
	return fmt.Sprintf("connection to %s refused: host %s resolved to %s, an address on this machine or a private network; "+
		"an http tool reaches such an address only when its URL names the IP itself (and allowed_hosts allows it)",
		e.addr, e.host, e.addr.Addr())
}

func (e *addrError) Unwrap() error { return ErrAddressNotAllowed }

// newDialer is the dialer of the shared http client.
func newDialer() *net.Dialer {
	return &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
}
