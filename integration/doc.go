// Package integration holds Toolyard's end-to-end tests: real embedded NATS
// servers, the pipeline's stages in-process and as separate worker processes
// of the built binary, killed and restarted as an operator's would be.
//
// The slowest self-contained ones (the docs' commands, the three-node
// clusters) are in integration/slow, a package of its own that 'go test
// ./...' runs beside this one; both use the harness in integration/itest.
package integration
