package gateway

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLineLength is the longest JSON-RPC line the stdio transport reads, as
// the SDK's own default.
const MaxLineLength = mcp.DefaultMaxLineLength

// StdioTransport is the SDK's newline-delimited stdio transport with one
// difference: a line that is not a JSON-RPC message is answered with a
// JSON-RPC error (-32700 parse error, -32600 invalid request; id null when
// the line names none) and the session goes on. The SDK decodes its input
// as one JSON stream, so a single stray line (a shell echo, a log line, a
// typo) ended the whole server and every later request went unanswered.
// Each line is checked before the SDK sees it; valid lines, batches
// included, pass through unchanged.
func StdioTransport(in io.Reader, out io.Writer, log *slog.Logger) mcp.Transport {
	if log == nil {
		log = slog.Default()
	}
	pr, pw := io.Pipe()
	w := &lockedWriter{w: out}
	go func() { _ = pw.CloseWithError(filterLines(in, pw, w, MaxLineLength, log)) }()
	return &mcp.IOTransport{Reader: pr, Writer: w, MaxLineLength: -1}
}

// filterLines copies each valid JSON-RPC line of in to pass and answers
// every other non-blank line on reply. It returns nil at the end of in.
func filterLines(in io.Reader, pass io.Writer, reply io.Writer, max int, log *slog.Logger) error {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(br, max)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if rerr := check(line, tooLong, max); rerr != nil {
				log.Warn("MCP stdio: answered a line that is not a JSON-RPC message", "code", rerr.Code, "error", rerr.Message)
				if werr := writeError(reply, lineID(line), rerr); werr != nil {
					return fmt.Errorf("answer a bad line: %w", werr)
				}
			} else if _, werr := pass.Write(append(bytes.TrimRight(line, "\r\n"), '\n')); werr != nil {
				return werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// readLine reads one line of at most max bytes; a longer one is read to its
// end, dropped, and reported with tooLong.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, tooLong, err
	}
}

// check says what is wrong with a line, or nil when the SDK can take it.
// A valid line is parsed once; only a refused one again, to say why.
func check(line []byte, tooLong bool, max int) *jsonrpc.Error {
	if tooLong {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf("Invalid Request: a message is one line of at most %d bytes", max)}
	}
	var invalid error
	if bytes.TrimSpace(line)[0] == '[' {
		// a batch: the SDK answers or refuses it by protocol version
		if json.Valid(line) {
			return nil
		}
	} else if _, invalid = jsonrpc.DecodeMessage(line); invalid == nil {
		return nil
	}
	if err := json.Unmarshal(line, new(json.RawMessage)); err != nil {
		return &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: fmt.Sprintf("Parse error: not JSON (%v); send one JSON-RPC 2.0 message per line", err)}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf("Invalid Request: %v", invalid)}
}

// writeError writes a JSON-RPC error response with the given id (null when
// the line names none, as JSON-RPC says).
func writeError(w io.Writer, id json.RawMessage, e *jsonrpc.Error) error {
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}{"2.0", id, e})
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// lineID is the id of a JSON object line when it is a string or a number,
// and null otherwise.
func lineID(line []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) == nil && len(m.ID) > 0 && (m.ID[0] == '"' || m.ID[0] == '-' || (m.ID[0] >= '0' && m.ID[0] <= '9')) {
		return m.ID
	}
	return json.RawMessage("null")
}

// lockedWriter serialises the SDK's writes and the filter's answers, so
// lines never interleave. The SDK writes each message with one Write.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Close leaves the underlying writer (standard output) open.
func (l *lockedWriter) Close() error { return nil }
