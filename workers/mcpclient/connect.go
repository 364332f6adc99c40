package mcpclient

import (
	"context"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect opens a session to srv with client. stderr, for stdio servers,
// receives the end of the process's stderr.
// cred, when set, is the user a stdio server runs as.
func connect(ctx context.Context, client *mcp.Client, srv Server, stderr *tailBuffer, cred *syscall.Credential) (*mcp.ClientSession, error) {
	if err := srv.Check(); err != nil {
		return nil, err
	}
	var t mcp.Transport
	if srv.URL != "" {
		var rt http.RoundTripper = http.DefaultTransport
		if len(srv.Headers) > 0 {
			rt = withHeaders{headers: srv.Headers, base: rt}
		}
		t = &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: rt}, MaxRetries: 2}
	} else {
		cmd := exec.Command(srv.Command[0], srv.Command[1:]...)
		cmd.Env = srv.environ()
		cmd.Dir = srv.Dir
		if stderr != nil {
			cmd.Stderr = stderr
		}
		// Its own process group: a Ctrl-C meant for the worker does not
		// kill the server under a call; Close ends it.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: cred}
		t = &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	}
	cs, err := client.Connect(ctx, t, nil)
	if err != nil {
		tail := ""
		if stderr != nil {
			// Give a dying process a moment to say why.
			time.Sleep(50 * time.Millisecond)
			tail = stderr.String()
		}
		return nil, &TransportError{Server: srv.String(), Op: "connect", Err: err, Stderr: tail}
	}
	return cs, nil
}

// tailBuffer keeps the last bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

// String is the kept tail on one line, trimmed.
func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(strings.Fields(strings.ToValidUTF8(string(b.buf), "")), " ")
}

func newClient(cfg config, opts *mcp.ClientOptions) *mcp.Client {
	if opts == nil {
		opts = &mcp.ClientOptions{}
	}
	// No roots: Toolyard does not expose its file system to the servers.
	opts.Capabilities = &mcp.ClientCapabilities{}
	return mcp.NewClient(&mcp.Implementation{Name: cfg.name, Version: cfg.version}, opts)
}

// withHeaders adds fixed headers to every request.
type withHeaders struct {
	headers map[string]string
	base    http.RoundTripper
}

func (h withHeaders) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.base.RoundTrip(r)
}
