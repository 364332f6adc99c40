package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/nats-io/nuid"

	"github.com/toolyard/toolyard/workers/session"
)

// minTokenLen is the shortest bearer token --tokens accepts: 32
// characters, such as 'openssl rand -hex 16' prints, are out of reach of
// guessing over HTTP.
const minTokenLen = 32

// mcpTokens are the bearer tokens HTTP clients of the gateway present,
// each limited to its sessions. Keyed by the token's SHA-256, so a lookup
// takes no time that depends on how much of a guess was right.
type mcpTokens map[[sha256.Size]byte]tokenGrant

// tokenGrant is what one token may do: act for the sessions its patterns
// match (an id, or a prefix ending in '*').
type tokenGrant struct {
	name     string // for logs: "line N of FILE"
	sessions []string
}

// readMCPTokens reads a --tokens file: one token per line, then the
// sessions it may act for ("TOKEN demo team-a-*"); '#' starts a comment.
// A file others may read is refused: the tokens are secrets.
func readMCPTokens(file string) (mcpTokens, error) {
	fi, err := os.Stat(file)
	if err != nil {
		return nil, fmt.Errorf("--tokens: %w", err)
	}
	if fi.Mode().Perm()&0o004 != 0 {
		return nil, fmt.Errorf("--tokens %s is readable by every user (mode %v): the tokens are secrets; chmod 600 it", file, fi.Mode().Perm())
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("--tokens: %w", err)
	}
	defer f.Close()
	toks := mcpTokens{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		where := fmt.Sprintf("line %d of %s", n, file)
		if len(fields) < 2 {
			return nil, fmt.Errorf("--tokens, %s: want a token and the sessions it may act for (ids, or prefixes ending in *)", where)
		}
		if len(fields[0]) < minTokenLen {
			return nil, fmt.Errorf("--tokens, %s: a token of %d characters; give at least %d (e.g. 'openssl rand -hex 16')", where, len(fields[0]), minTokenLen)
		}
		for _, p := range fields[1:] {
			if err := session.CheckID(strings.TrimSuffix(p, "*")); err != nil && p != "*" {
				return nil, fmt.Errorf("--tokens, %s: session %q: %w", where, p, err)
			}
		}
		key := sha256.Sum256([]byte(fields[0]))
		if _, dup := toks[key]; dup {
			return nil, fmt.Errorf("--tokens, %s: the token is given twice", where)
		}
		toks[key] = tokenGrant{name: where, sessions: fields[1:]}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--tokens %s: %w", file, err)
	}
	if len(toks) == 0 {
		return nil, fmt.Errorf("--tokens %s holds no token", file)
	}
	return toks, nil
}

// verify is the bearer-token check (auth.RequireBearerToken): the token's
// grant travels in the request's context, and its name is the MCP
// session's user, so another token cannot take the session over.
func (t mcpTokens) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	g, ok := t[sha256.Sum256([]byte(token))]
	if !ok {
		return nil, fmt.Errorf("%w: not one of the gateway's --tokens", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{UserID: g.name, Extra: map[string]any{"sessions": g.sessions}}, nil
}

// grantedSessions are the session patterns of the request's token; nil
// when the gateway takes no tokens.
func grantedSessions(r *http.Request) []string {
	ti := auth.TokenInfoFromContext(r.Context())
	if ti == nil {
		return nil
	}
	s, _ := ti.Extra["sessions"].([]string)
	return s
}

// sessionFor is the session an HTTP request acts for: the one it names,
// if its token allows it, else a new one within the token's first prefix.
func sessionFor(named string, granted []string, tokens bool) (string, error) {
	if !tokens {
		if named == "" {
			return "mcp-" + nuid.Next(), nil
		}
		return named, nil
	}
	if named != "" {
		for _, p := range granted {
			if p == named || strings.HasSuffix(p, "*") && strings.HasPrefix(named, strings.TrimSuffix(p, "*")) {
				return named, nil
			}
		}
		return "", fmt.Errorf("this token may not act for session %q (it may for: %s)", named, strings.Join(granted, " "))
	}
	for _, p := range granted {
		if prefix, ok := strings.CutSuffix(p, "*"); ok {
			if prefix == "" {
				prefix = "mcp-"
			}
			return prefix + nuid.Next(), nil
		}
	}
	return "", fmt.Errorf("name the session with the X-Toolyard-Session header or ?session= (this token may act for: %s)", strings.Join(granted, " "))
}

// loopbackOnly says whether an --http address is reachable from this
// machine only.
func loopbackOnly(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	return err == nil && isLoopback(host)
}
