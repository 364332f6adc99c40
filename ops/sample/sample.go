// Package sample ships the sample tool registry that `toolyard up` serves
// when no registry is given.
package sample

import (
	"bytes"
	_ "embed"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
)

//go:embed tools.jsonl
var toolsJSONL []byte

// Tools returns the sample registry's manifests.
func Tools() ([]schemas.Manifest, error) {
	return registry.Read(bytes.NewReader(toolsJSONL))
}
