//go:build !toolyard_novectors

package embed

import stdembed "embed"

// The pattern names the folder, not the file: data/README.md is committed,
// so the package builds before `make embeddings` has produced vectors.bin.
//
//go:embed data
var dataFS stdembed.FS
