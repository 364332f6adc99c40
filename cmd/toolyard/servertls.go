package main

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"

	"github.com/spf13/cobra"
)

// serverTLSFlags give the embedded server a certificate; without one it
// listens on loopback only unless told otherwise.
type serverTLSFlags struct {
	cert, key      string
	insecureListen bool
}

func (f *serverTLSFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.cert, "server-tls-cert", "", "certificate of the embedded NATS server: clients must connect with TLS")
	cmd.Flags().StringVar(&f.key, "server-tls-key", "", "key of --server-tls-cert")
	cmd.Flags().BoolVar(&f.insecureListen, "insecure-listen", false, "allow --listen on a non-loopback address without TLS (credentials and traffic cross the network in clear text)")
}

// config is the server's TLS configuration (nil: plain text), refusing
// plain text on an address other machines can reach unless told to.
func (f *serverTLSFlags) config(host string) (*tls.Config, error) {
	if (f.cert == "") != (f.key == "") {
		return nil, errors.New("--server-tls-cert and --server-tls-key go together")
	}
	if f.cert == "" {
		if !isLoopback(host) && !f.insecureListen {
			return nil, fmt.Errorf("--listen on %q is reachable from other machines: give the server a certificate (--server-tls-cert FILE --server-tls-key FILE), or accept clear text with --insecure-listen", host)
		}
		return nil, nil
	}
	pair, err := tls.LoadX509KeyPair(f.cert, f.key)
	if err != nil {
		return nil, fmt.Errorf("server certificate: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
