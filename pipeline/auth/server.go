package auth

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
)

// AccountName is the display name of the account Toolyard's data lives in.
const AccountName = "TOOLYARD"

// Trust is what a server needs to verify the deployment's users: the
// operator JWT and the account JWTs it signed.
type Trust struct {
	Operator      string
	SystemAccount string
	// Accounts maps an account's public key to its JWT.
	Accounts map[string]string
}

// Trust signs the operator and account JWTs: TOOLYARD, where the streams
// live, AGENTS importing the shares from it, and the system account.
func (k *Keys) Trust(shares ...Share) (Trust, error) {
	opPub, err := k.Operator.PublicKey()
	if err != nil {
		return Trust{}, err
	}
	sysPub, err := k.System.PublicKey()
	if err != nil {
		return Trust{}, err
	}
	op := jwt.NewOperatorClaims(opPub)
	op.Name = "toolyard"
	op.SystemAccount = sysPub
	opJWT, err := op.Encode(k.Operator)
	if err != nil {
		return Trust{}, fmt.Errorf("sign operator: %w", err)
	}

	app := jwt.NewAccountClaims(k.AccountPublicKey())
	app.Name = AccountName
	// JetStream without account limits: the server's own limits
	// (max store, stream limits) bound it.
	app.Limits.JetStreamLimits = jwt.JetStreamLimits{MemoryStorage: -1, DiskStorage: -1, Streams: -1, Consumer: -1, MaxAckPending: -1, MemoryMaxStreamBytes: -1, DiskMaxStreamBytes: -1}
	if !k.RevokedBefore.IsZero() {
		// Refused: credentials issued before that second (the server
		// compares whole seconds, refusing those issued at or before).
		app.RevokeAt(jwt.All, k.RevokedBefore.Add(-time.Second))
	}
	agents, err := agentsAccount(app, k.AgentsPublicKey(), shares)
	if err != nil {
		return Trust{}, err
	}
	appJWT, err := app.Encode(k.Operator)
	if err != nil {
		return Trust{}, fmt.Errorf("sign account %s: %w", AccountName, err)
	}
	agentsJWT, err := agents.Encode(k.Operator)
	if err != nil {
		return Trust{}, fmt.Errorf("sign account %s: %w", AgentsAccountName, err)
	}
	sys := jwt.NewAccountClaims(sysPub)
	sys.Name = "SYS"
	sysJWT, err := sys.Encode(k.Operator)
	if err != nil {
		return Trust{}, fmt.Errorf("sign system account: %w", err)
	}
	return Trust{Operator: opJWT, SystemAccount: sysPub, Accounts: map[string]string{k.AccountPublicKey(): appJWT, k.AgentsPublicKey(): agentsJWT, sysPub: sysJWT}}, nil
}

// Configure puts the server in operator mode with the deployment's
// accounts preloaded, so it verifies user JWTs without a lookup and
// refuses anonymous connections.
func (k *Keys) Configure(opts *server.Options, shares ...Share) error {
	tr, err := k.Trust(shares...)
	if err != nil {
		return err
	}
	opClaims, err := jwt.DecodeOperatorClaims(tr.Operator)
	if err != nil {
		return fmt.Errorf("read back operator: %w", err)
	}
	resolver := &server.MemAccResolver{}
	for pub, token := range tr.Accounts {
		if err := resolver.Store(pub, token); err != nil {
			return err
		}
	}
	opts.TrustedOperators = []*jwt.OperatorClaims{opClaims}
	opts.AccountResolver = resolver
	opts.SystemAccount = tr.SystemAccount
	return nil
}

// ServerConfig is the same trust as a nats-server configuration block, for
// the servers of a cluster the stages run on (include it in each
// server's configuration). maxControlLine is the protocol line limit the
// credentials need.
func (tr Trust) ServerConfig(maxControlLine int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Toolyard's operator, accounts and limits: written by 'toolyard creds server-config'.\n")
	fmt.Fprintf(&b, "operator: %s\n", tr.Operator)
	fmt.Fprintf(&b, "system_account: %s\n", tr.SystemAccount)
	fmt.Fprintf(&b, "resolver: MEMORY\n")
	fmt.Fprintf(&b, "resolver_preload: {\n")
	for _, pub := range slices.Sorted(maps.Keys(tr.Accounts)) {
		fmt.Fprintf(&b, "  %s: %s\n", pub, tr.Accounts[pub])
	}
	fmt.Fprintf(&b, "}\n")
	fmt.Fprintf(&b, "max_control_line: %d\n", maxControlLine)
	return b.String()
}
