// Package integration holds Toolyard's end-to-end tests: real embedded NATS
// servers, the pipeline's stages in-process and as separate worker processes
// of the built binary, killed and restarted as an operator's would be.
package integration
