package schemas

// Signature is a manifest's ed25519 signature, made by `toolyard tools sign`
// with an nkeys account key. What it covers is defined in package
// workers/registry/sign: the manifest's canonical JSON with this object in
// place minus Sig, so Key and Files are signed too.
type Signature struct {
	// Key is the signer's public account nkey ("A…").
	Key string `json:"key"`
	// Files maps each script a subprocess tool runs (absolute path) to the
	// hex sha256 of its content when it was signed.
	Files map[string]string `json:"files,omitempty"`
	// Serial orders the signatures of one tool id: a registry and a worker
	// refuse a signed manifest whose serial is lower than one they have
	// seen for the same id, so an old signed version cannot be replayed.
	// 'toolyard tools sign' sets it to the signing time in milliseconds
	// (or one more than the previous serial, if that is higher).
	Serial int64 `json:"serial,omitempty"`
	// Sig is the base64url (unpadded) ed25519 signature.
	Sig string `json:"sig"`
}
