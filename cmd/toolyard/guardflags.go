package main

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/pflag"

	"github.com/toolyard/toolyard/workers/execute"
	"github.com/toolyard/toolyard/workers/registry/sign"
)

// guardFlags configure what the execute stage refuses to run: unsigned or
// tampered tools, tools needing permissions a session does not hold. They
// also hand nats tools the worker's connection.
type guardFlags struct {
	requireSigned   bool
	trustedKeys     []string
	trustedKeysFile string
	revokedKeys     []string
	revokedKeysFile string
	confine         confineFlags
	allow           []string
	policyFile      string
	toolCreds       string
	// toolConn opens the connection NATS-request tools publish on (nil:
	// the stage's own); set by the command, which knows how to connect.
	toolConn func() (*nats.Conn, error)
	fs       *pflag.FlagSet
}

func (f *guardFlags) register(fl *pflag.FlagSet) {
	f.fs = fl
	fl.BoolVar(&f.requireSigned, "require-signed", false, "execute only tools signed ('toolyard tools sign') by a key in --trusted-keys whose manifest and scripts are unchanged; others are answered unsigned_tool, bad_signature or untrusted_key")
	fl.StringSliceVar(&f.trustedKeys, "trusted-keys", nil, "public account nkeys (A…) whose tool signatures are accepted, comma-separated; without --require-signed, signed tools are still checked and unsigned ones run")
	fl.StringVar(&f.trustedKeysFile, "trusted-keys-file", "", "file of trusted public keys, one per line (# comments allowed)")
	fl.StringSliceVar(&f.revokedKeys, "revoked-keys", nil, "public keys whose tool signatures are refused (revoked_key) even if trusted, comma-separated")
	fl.StringVar(&f.revokedKeysFile, "revoked-keys-file", "", "revocation list: public keys, one per line (# comments); re-read whenever it changes, so revoking needs no restart")
	f.confine.register(fl)
	fl.StringVar(&f.toolCreds, "tool-creds", "", "credential of the connection NATS-request tools publish on (DATA/creds/tools.creds: any subject outside Toolyard's and the server's namespaces); default: the worker's own connection, whose credential allows no tool subjects")
	fl.StringSliceVar(&f.allow, "allow-permissions", nil, "permissions every session's tools may need (e.g. fs.read,net; \"fs\" covers fs.read and fs.write; * all); a tool needing others is answered permission_denied. Unset: every permission name is allowed (write, delete and network still need --allow); empty (--allow-permissions=\"\"): only tools needing none run")
	fl.StringVar(&f.policyFile, "permissions-file", "", `per-session permissions, JSON: {"default": ["fs.read"], "grant": [], "sessions": [{"match": "ci-*", "allow": ["fs", "net"], "grant": ["write", "network"]}]} (first matching glob wins; --allow-permissions replaces "default"; "grant" adds risk classes to --allow's; an allow entry naming a permission grants it too)`)
}

// options are the execute options the flags set; nats tools get js's
// connection.
func (f *guardFlags) options(js jetstream.JetStream, log *slog.Logger) ([]execute.Option, error) {
	nc := js.Conn()
	if f.toolConn != nil {
		tc, err := f.toolConn()
		if err != nil {
			return nil, fmt.Errorf("connection for NATS-request tools: %w", err)
		}
		if tc != nil {
			nc = tc
		}
	}
	opts := []execute.Option{execute.WithNATS(nc)}
	copts, err := f.confine.options(log)
	if err != nil {
		return nil, err
	}
	opts = append(opts, copts...)

	keys := append([]string(nil), f.trustedKeys...)
	if f.trustedKeysFile != "" {
		more, err := sign.ReadKeys(f.trustedKeysFile)
		if err != nil {
			return nil, err
		}
		keys = append(keys, more...)
	}
	switch {
	case len(keys) > 0:
		trust, err := sign.NewTrust(keys...)
		if err != nil {
			return nil, fmt.Errorf("--trusted-keys: %w", err)
		}
		if err := trust.Revoke(f.revokedKeys...); err != nil {
			return nil, fmt.Errorf("--revoked-keys: %w", err)
		}
		if f.revokedKeysFile != "" {
			if err := trust.RevokeFile(f.revokedKeysFile); err != nil {
				return nil, fmt.Errorf("--revoked-keys-file: %w", err)
			}
		}
		opts = append(opts, execute.WithSignatures(trust, f.requireSigned))
		log.Info("tool signatures checked", "trusted_keys", trust.Len(), "revoked_keys", trust.RevokedLen(), "require_signed", f.requireSigned)
	case f.requireSigned:
		return nil, errors.New("--require-signed needs the public keys to trust: --trusted-keys A… or --trusted-keys-file FILE")
	}

	var policy *execute.Policy
	if f.policyFile != "" {
		p, err := execute.LoadPolicy(f.policyFile)
		if err != nil {
			return nil, err
		}
		policy = p
	}
	if f.fs != nil && f.fs.Changed("allow-permissions") {
		if policy == nil {
			policy = &execute.Policy{}
		}
		policy.Default = []string{}
		for _, a := range f.allow {
			if a = strings.TrimSpace(a); a != "" {
				policy.Default = append(policy.Default, a)
			}
		}
		if err := policy.Check(); err != nil {
			return nil, fmt.Errorf("--allow-permissions: %w", err)
		}
	}
	if policy != nil {
		opts = append(opts, execute.WithPermissions(policy))
		log.Info("tool permissions enforced", "default", policy.Default, "session_rules", len(policy.Sessions))
	}
	return opts, nil
}
