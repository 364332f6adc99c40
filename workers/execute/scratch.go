package execute

import (
	"os"
	"path/filepath"
	"sync"
)

// scratchParent is the directory every call's scratch directory is made
// in: one of this process's in the system temp directory, made at first
// use. Made straight in /tmp, the scratch directories of running calls
// appeared and vanished there, and a tool listing /tmp (the directory
// agents list most, inside the default --path-root) failed whenever one
// vanished between reading the directory and stat-ing its entries (ls -l
// exits 1 on that). 0711: a --run-as tool reaches its own directory inside
// but can list nobody's.
var scratchParent = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "toolyard-scratch-")
	if err != nil {
		return "", err
	}
	return dir, os.Chmod(dir, 0o711)
})

// scratchDir makes a call's scratch directory, in scratchParent (straight
// in the temp directory if that cannot be made).
func scratchDir(toolID string) (string, error) {
	parent, err := scratchParent()
	if err != nil {
		parent = ""
	}
	return os.MkdirTemp(parent, "toolyard-"+filepath.Base(toolID)+"-")
}
