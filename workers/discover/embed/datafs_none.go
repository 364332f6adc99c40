//go:build toolyard_novectors

package embed

import stdembed "embed"

// dataFS is empty: the build a checkout without `make embeddings` makes,
// on purpose (go build -tags toolyard_novectors), so a test can see what
// such a build does without removing the vectors from the checkout.
var dataFS stdembed.FS
