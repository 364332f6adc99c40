package pipeline

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Ops is the operations endpoint of a process: /metrics, /healthz, /readyz,
// plus whatever pages the caller mounts.
type Ops struct {
	Registry *prometheus.Registry
	Metrics  *Metrics
	mux      *http.ServeMux
	nc       *nats.Conn
}

// NewOps creates the metric registry (with Go and process collectors) and
// the handlers; nc is the connection whose health /readyz reports.
func NewOps(nc *nats.Conn) *Ops {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	o := &Ops{Registry: reg, Metrics: NewMetrics(reg), mux: http.NewServeMux(), nc: nc}
	o.mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	o.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "ok")
	})
	o.mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if err := o.Ready(); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ready")
	})
	return o
}

// Ready reports whether the process can do its work: connected to NATS.
func (o *Ops) Ready() error {
	if o.nc == nil {
		return errors.New("no NATS connection")
	}
	if s := o.nc.Status(); s != nats.CONNECTED {
		return fmt.Errorf("NATS connection is %s", s)
	}
	return nil
}

// Handle mounts an extra page.
func (o *Ops) Handle(pattern string, h http.Handler) { o.mux.Handle(pattern, h) }

// ListenOps binds addr for the ops HTTP endpoints (Serve). A process binds
// it before it starts anything else, so a taken address stops it at once
// with the cause, not after its server and stages started (and logged
// their shutdown).
func ListenOps(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--http %s: cannot listen for metrics and the status page there (another toolyard, or another program, may have it; choose another address with --http HOST:PORT, or turn it off with --http ''): %w", addr, err)
	}
	return ln, nil
}

// Serve serves the ops endpoints on ln until ctx ends and returns the
// address it listens on (useful with port 0).
func (o *Ops) Serve(ctx context.Context, ln net.Listener, log *slog.Logger) string {
	srv := &http.Server{Handler: o.mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		// Closed: the process is returning (it closes ln however it ends).
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) && !errors.Is(err, net.ErrClosed) {
			log.Error("ops HTTP server stopped", "error", err)
		}
	}()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	return ln.Addr().String()
}
