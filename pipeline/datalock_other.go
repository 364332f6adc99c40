//go:build !unix

package pipeline

import "os"

// lockDataDir does not lock where flock is not available.
func lockDataDir(string) (*os.File, error) { return nil, nil }
