package auth

import (
	"fmt"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
)

// AccountName is the display name of the account Toolyard's data lives in.
const AccountName = "TOOLYARD"

// Configure puts the server in operator mode with the deployment's
// accounts preloaded, so it verifies user JWTs without a lookup and
// refuses anonymous connections.
func (k *Keys) Configure(opts *server.Options) error {
	opPub, err := k.Operator.PublicKey()
	if err != nil {
		return err
	}
	sysPub, err := k.System.PublicKey()
	if err != nil {
		return err
	}
	op := jwt.NewOperatorClaims(opPub)
	op.Name = "toolyard"
	op.SystemAccount = sysPub
	opJWT, err := op.Encode(k.Operator)
	if err != nil {
		return fmt.Errorf("sign operator: %w", err)
	}
	opClaims, err := jwt.DecodeOperatorClaims(opJWT)
	if err != nil {
		return fmt.Errorf("read back operator: %w", err)
	}

	app := jwt.NewAccountClaims(k.AccountPublicKey())
	app.Name = AccountName
	// JetStream without account limits: the server's own limits
	// (max store, stream limits) bound it.
	app.Limits.JetStreamLimits = jwt.JetStreamLimits{MemoryStorage: -1, DiskStorage: -1, Streams: -1, Consumer: -1, MaxAckPending: -1, MemoryMaxStreamBytes: -1, DiskMaxStreamBytes: -1}
	appJWT, err := app.Encode(k.Operator)
	if err != nil {
		return fmt.Errorf("sign account %s: %w", AccountName, err)
	}
	sys := jwt.NewAccountClaims(sysPub)
	sys.Name = "SYS"
	sysJWT, err := sys.Encode(k.Operator)
	if err != nil {
		return fmt.Errorf("sign system account: %w", err)
	}

	resolver := &server.MemAccResolver{}
	if err := resolver.Store(k.AccountPublicKey(), appJWT); err != nil {
		return err
	}
	if err := resolver.Store(sysPub, sysJWT); err != nil {
		return err
	}
	opts.TrustedOperators = []*jwt.OperatorClaims{opClaims}
	opts.AccountResolver = resolver
	opts.SystemAccount = sysPub
	return nil
}
