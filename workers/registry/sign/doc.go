// Package sign signs tool manifests, and the scripts subprocess tools run,
// with ed25519 keys in the nkeys format, and verifies them before a tool runs.
//
// # Keys
//
// Signing keys are nkeys account keys: the seed starts with "SA", the
// public key with "A". Account keys are what NATS uses to sign things
// (user JWTs); user keys authenticate connections and are refused here, so a
// credential file can never double as a tool-signing key.
//
// # What is signed
//
// The payload is the bytes "toolyard.manifest.v1\n" followed by the
// canonical JSON of the manifest with its signature object in place and the
// signature object's "sig" member removed, so the signer's key and the
// script hashes are covered too. The canonical JSON is:
//
//   - the manifest as the schemas.Manifest type encodes it (unknown members
//     dropped, durations as Go duration strings like "5s", a bare-string
//     executor as its object form), so a manifest survives the registry's
//     round trip;
//   - decoded to plain JSON values and encoded again with object members
//     sorted by key (byte order), no insignificant whitespace, numbers as
//     the shortest decimal that reads back as the same float64 (exponent form
//     below 1e-6 and from 1e21; a number beyond float64's range keeps
//     its literal text), and strings escaped as encoding/json does
//     with HTML escaping off (", \ and control characters; U+2028 and U+2029
//     as \u2028 and \u2029; invalid UTF-8 as U+FFFD).
//
// # Scripts
//
// For subprocess tools (argv) and MCP servers started as a command, the
// files a tool runs are covered by their sha256: every template element
// without a {placeholder} that names an existing regular file — absolute,
// or relative to the executor's dir when it sets one. The first element
// counts only when it holds a slash: a bare command name is looked up on PATH
// and is the system's, not the tool's; so are files under /bin, /sbin,
// /usr/bin, /usr/sbin, /usr/lib, /usr/lib64, /usr/libexec, /lib and /lib64
// (an interpreter such as /usr/bin/python3 is updated by the system's
// package manager). So is the file a parameter fixed by the tool's schema
// names (a top-level property whose "const" is an absolute path to a
// file): the script a delegation hands down, as a kiwi tool passes its .py
// file to its python runtime tool as script_path. Verification recomputes that set, so
// a changed script, a script that appeared after signing, or a signed script
// that is gone are all refused. (A file is hashed just before it runs; a
// writer racing the execution in that window is not caught. Keep tool
// scripts where workers cannot be written to.)
package sign
